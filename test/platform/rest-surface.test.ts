import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/schema.ts';
import { restError } from '../support/assertions.ts';
import { buildUser } from '../factories.ts';
import { BASE, useHarness } from '../support/harness.ts';

// A copy of the API description's operation list (shared/spec/operations.tsv): METHOD, path, section.
const documented = new Set(
  fs
    .readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'operations.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [method, route] = line.split('\t');
      return `${method} ${route}`;
    }),
);

const h = useHarness();

describe('REST surface', () => {
  it('serves only documented operations and declared additions, each with its documented method and path', () => {
    const undocumented: string[] = [];
    for (const [field, route] of Object.entries(restRoutes)) {
      const key = `${route.method} ${route.path}`;
      if (documented.has(key)) {
        expect(route.addition, `${key} is documented, not an addition`).toBeUndefined();
      } else if (!route.addition) {
        undocumented.push(`${key} (${field})`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('declares exactly these additions', () => {
    const additions = Object.values(restRoutes)
      .filter((r) => r.addition)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(additions).toEqual([
      'DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}',
      'GET /orgs/{organizationId}/spaces',
      'GET /user',
      'GET /user/invitations',
      'POST /admin/users',
      'POST /integrations/{integrationName}/installations',
      'POST /orgs',
      'POST /orgs/{organizationId}/sites/{siteId}/publish',
      'POST /orgs/{organizationId}/sites/{siteId}/unpublish',
      'POST /orgs/{organizationId}/spaces',
      'POST /spaces/{spaceId}/change-requests/{changeRequestId}/content',
      // What a change request changes, for reviewers (issue 39): GitBook's two and our diff.
      'GET /spaces/{spaceId}/change-requests/{changeRequestId}/changes',
      'GET /spaces/{spaceId}/change-requests/{changeRequestId}/contributors',
      'GET /spaces/{spaceId}/change-requests/{changeRequestId}/diff',
    ].concat(
      // GitBook's content by revision (issue 24).
      [
        'GET /spaces/{spaceId}/revisions/{revisionId}',
        'GET /spaces/{spaceId}/revisions/{revisionId}/files',
        'GET /spaces/{spaceId}/revisions/{revisionId}/files/{fileId}',
        'GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}',
        'GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document',
        'GET /spaces/{spaceId}/revisions/{revisionId}/pages',
        'GET /spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}',
        'GET /spaces/{spaceId}/content/path/{pagePath}',
        'GET /spaces/{spaceId}/revisions/{revisionId}/changes',
        'GET /spaces/{spaceId}/documents/{documentId}',
        // The URL lookup of published sites and visitor authentication (issue 24).
        'GET /urls/published',
        'POST /urls/published',
        'GET /orgs/{organizationId}/sites/{siteId}/publishing/auth',
        'PATCH /orgs/{organizationId}/sites/{siteId}/publishing/auth',
        'POST /orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate',
        'GET /orgs/{organizationId}/sites/{siteId}/customization',
        'PUT /orgs/{organizationId}/sites/{siteId}/customization',
        'GET /orgs/{organizationId}/sites/{siteId}/structure',
        // A site space's customization overrides (GitBook's get/override/deleteSiteSpaceCustomizationById).
        'GET /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
        'PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
        'DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
        // What an application URL shows (GitBook's getContentByUrl), a page's alternates (list*PageMetaLinks).
        'GET /urls/content',
        'GET /spaces/{spaceId}/content/page/{pageId}/meta-links',
        'GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
        // Site spaces, the variants of sections (GitBook's listSiteSpaces, addSpaceToSite, updateSiteSpaceById, deleteSiteSpaceById).
        'GET /orgs/{organizationId}/sites/{siteId}/site-spaces',
        'POST /orgs/{organizationId}/sites/{siteId}/site-spaces',
        'PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
        'DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
        // One request per page of a published site (ours).
        'GET /published-page',
        // Site redirects (GitBook's site-redirects operations).
        'GET /orgs/{organizationId}/sites/{siteId}/redirects',
        'POST /orgs/{organizationId}/sites/{siteId}/redirects',
        'PUT /orgs/{organizationId}/sites/{siteId}/redirects',
        'GET /orgs/{organizationId}/sites/{siteId}/redirect',
        'PATCH /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
        'DELETE /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
        // Site search (GitBook's searchSiteContent).
        'POST /orgs/{organizationId}/sites/{siteId}/search',
        // Comments on a space itself (GitBook's space-comments operations, issue 26).
        'GET /spaces/{spaceId}/comments',
        'POST /spaces/{spaceId}/comments',
        'GET /spaces/{spaceId}/comments/{commentId}',
        'PUT /spaces/{spaceId}/comments/{commentId}',
        'DELETE /spaces/{spaceId}/comments/{commentId}',
        'GET /spaces/{spaceId}/comments/{commentId}/replies',
        'POST /spaces/{spaceId}/comments/{commentId}/replies',
        'GET /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
        'PUT /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
        'DELETE /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}',
        'GET /spaces/{spaceId}/commenters',
        // Who can access a space (GitBook's space-permissions operations, issue 26).
        'POST /spaces/{spaceId}/permissions',
        'GET /spaces/{spaceId}/permissions/users',
        'GET /spaces/{spaceId}/permissions/teams',
        'GET /spaces/{spaceId}/permissions/aggregate',
        'PATCH /spaces/{spaceId}/permissions/users/{userId}',
        'PATCH /spaces/{spaceId}/permissions/teams/{teamId}',
        'DELETE /spaces/{spaceId}/permissions/users/{userId}',
        'DELETE /spaces/{spaceId}/permissions/teams/{teamId}',
        // Who can access a collection (GitBook's collection-permissions operations, issue 26).
        'POST /collections/{collectionId}/permissions',
        'GET /collections/{collectionId}/permissions/users',
        'GET /collections/{collectionId}/permissions/teams',
        'GET /collections/{collectionId}/permissions/aggregate',
        'PATCH /collections/{collectionId}/permissions/users/{userId}',
        'PATCH /collections/{collectionId}/permissions/teams/{teamId}',
        'DELETE /collections/{collectionId}/permissions/users/{userId}',
        'DELETE /collections/{collectionId}/permissions/teams/{teamId}',
        // Who can access a site (GitBook's site-permissions operations, issue 26).
        'POST /orgs/{organizationId}/sites/{siteId}/permissions',
        'GET /orgs/{organizationId}/sites/{siteId}/permissions/users',
        'GET /orgs/{organizationId}/sites/{siteId}/permissions/teams',
        'GET /orgs/{organizationId}/sites/{siteId}/permissions/aggregate',
        'PATCH /orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
        'PATCH /orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
        'DELETE /orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}',
        'DELETE /orgs/{organizationId}/sites/{siteId}/permissions/teams/{teamId}',
        // Review requests and reviews of change requests (GitBook's change-request review operations, issue 26).
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
        'POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
        'DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}',
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
        'POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
        // Change requests across an organization (GitBook's listChangeRequestsForOrganization).
        'GET /orgs/{organizationId}/change-requests',
        // A change request's page by path and its alternates (GitBook's getPageInChangeRequestByPath, listChangeRequestPageMetaLinks).
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}',
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
        // Who commented on a change request (GitBook's listCommentersInChangeRequest).
        'GET /spaces/{spaceId}/change-requests/{changeRequestId}/commenters',
        // A user by ID, where User.urls.location points (GitBook's getUserById).
        'GET /users/{userId}',
        // One installation, and uninstalling it (GitBook's getIntegrationInstallationById, uninstallIntegration).
        'GET /integrations/{integrationName}/installations/{installationId}',
        'DELETE /integrations/{integrationName}/installations/{installationId}',
        // Sorting a site's sections and section groups (GitBook's sortSiteStructure).
        'PATCH /orgs/{organizationId}/sites/{siteId}/structure/sort',
        // Git Sync of a space (GitBook's importGitRepository, exportToGitRepository, getSpaceGitInfo).
        'POST /spaces/{spaceId}/git/import',
        'POST /spaces/{spaceId}/git/export',
        'GET /spaces/{spaceId}/git/info',
        // Its push webhook's secret (ours: GitBook sets up webhooks through its GitHub and GitLab apps).
        'POST /spaces/{spaceId}/git/webhook',
        // Git Sync installations (GitBook's installGitSyncProviderOnTarget, getGitSyncInstallationById, updateGitSyncInstallationById, uninstallGitSyncInstallation).
        'POST /git/installations',
        'GET /git/installations/{installationId}',
        'PATCH /git/installations/{installationId}',
        'DELETE /git/installations/{installationId}',
      ],
    ).sort());
  });

  it('has no two routes on the same method and path', () => {
    const keys = Object.values(restRoutes).map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('publishes every route, and only those, in the OpenAPI document', async () => {
    const doc = await (await h.app.fetch(`${BASE}/v1/openapi.json`)).json();
    const published = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    const declared = Object.values(restRoutes)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(published).toEqual(declared);
  });

  it('covers the documented operations of the organizations, members and teams slice', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter(
      (op) => /\/orgs(\/\{organizationId\})?$|\/members|\/teams|\/ping|email-domains/.test(op) && !op.endsWith('/spaces'),
    );
    expect(slice.length).toBe(20);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('covers the documented operations of collections, spaces and custom fields', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter(
      (op) => /^\w+ \/collections|\/collections$|^\w+ \/spaces\/\{spaceId\}(\/(duplicate|restore|move|transfer|links|custom-fields))?$|custom-fields|members\/\{userId\}\/spaces$/.test(op),
    );
    expect(slice.length).toBe(24);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('covers the documented operations of change requests, their content and comments', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter((op) => op.includes('/change-requests') && !op.endsWith('/import'));
    expect(slice.length).toBe(23);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('covers the documented operations of sites, sections, section groups and share links', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter((op) => op.includes('/sites'));
    expect(slice.length).toBe(24);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('covers the documented operations of translations, OpenAPI specs and integrations', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter((op) => /\/translations|\/openapi|^\w+ \/integrations/.test(op));
    expect(slice.length).toBe(15);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('covers the documented operations of search and import', () => {
    const served = new Set(Object.values(restRoutes).map((r) => `${r.method} ${r.path}`));
    const slice = [...documented].filter((op) => /\/search$|\/content\/import$/.test(op));
    expect(slice.length).toBe(4);
    expect(slice.filter((op) => !served.has(op))).toEqual([]);
  });

  it('documents body fields in the body only, and takes them from the body only', async () => {
    const doc = await (await h.app.fetch(`${BASE}/v1/openapi.json`)).json();
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const bodyFields = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
        const queryParams = (op.parameters ?? []).filter((x: any) => x.in === 'query').map((x: any) => x.name);
        expect(queryParams.filter((n: string) => bodyFields.includes(n)), `${method} ${p}`).toEqual([]);
        // Write routes take query parameters only where the route declares them (GitBook's `compat`).
        const route = Object.values(restRoutes).find((r) => r.method.toLowerCase() === method && r.path === p);
        if (['post', 'put', 'patch'].includes(method)) expect(queryParams, `${method} ${p}`).toEqual(route?.query ?? []);
      }
    }
    expect(doc.paths['/orgs'].post.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { required: ['title'] } } } });

    const user = await buildUser(h);
    // Once accepted with no body at all (201): the field must come from the JSON body.
    restError(await user.rest('POST', '/v1/orgs?title=FromQuery'), 400, 'title');
    restError(await user.rest('POST', '/v1/orgs?title=FromQuery', { title: 'From body' }), 400, 'title');
    expect(await h.db.member.count({ where: { userId: user.userId } })).toBe(0);
    // Parameters that are no argument of the route are ignored, as on GET.
    expect((await user.rest('POST', '/v1/orgs?utm_source=x', { title: 'From body' })).status).toBe(201);
  });
});
