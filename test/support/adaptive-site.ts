import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from './assertions.ts';
import type { Caller, Harness } from './harness.ts';

/**
 * A public adaptive site with everything a visitor must not learn (issue 36): spaces written through
 * change requests by a member and merged by the admin, with review comments and replies; a section and
 * a variant whose condition fails for a visitor without claims, and a section group holding only a
 * hidden section. `secrets` lists strings that appear in no answer a visitor gets; `visitorToken` is
 * the apiToken the URL lookup gives an anonymous visitor of the site's root.
 */
export interface AdaptiveSite {
  admin: Caller;
  writer: Caller;
  o: string;
  site: { id: string };
  base: string;
  guides: { id: string; revision: string; pageId: string; pagePath: string; fileId: string };
  guidesSiteSpaceId: string;
  secrets: string[];
  visitorToken: string;
}

const CONDITION = 'visitor.claims.unsigned.beta == true';

/** A space with one page and one file, written by `writer` in a change request the admin comments and merges. */
async function writtenSpace(admin: Caller, writer: Caller, o: string, title: string, marker: string) {
  const space = await buildSpace(admin, o, { title });
  const crPath = (id: string) => `/v1/spaces/${space.id}/change-requests/${id}`;
  const cr = expectOk(await writer.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Subject ${marker}` }), 201);
  expectOk(
    await writer.rest('POST', `${crPath(cr.id)}/content`, {
      changes: [
        { operation: 'insert_page', title: `${title} start`, document: { markdown: `Welcome to ${title}.` } },
        { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
      ],
    }),
  );
  const comment = expectOk(await admin.rest('POST', `${crPath(cr.id)}/comments`, { body: { markdown: `Comment ${marker}` } }));
  expectOk(await writer.rest('POST', `${crPath(cr.id)}/comments/${comment.id}/replies`, { body: { markdown: `Reply ${marker}` } }));
  const merged = expectOk(await admin.rest('POST', `${crPath(cr.id)}/merge`));
  return { ...space, revision: merged.revision as string };
}

export async function buildAdaptiveSite(h: Harness): Promise<AdaptiveSite> {
  const { admin, organizationId: o } = await buildOrganization(h, 'Adaptive Publisher');
  const writer = await buildMember(h, o, 'edit', 'Writer Person');
  const guides = await writtenSpace(admin, writer, o, 'Guides', 'GUIDES-INTERNAL');
  const secret = await writtenSpace(admin, writer, o, 'Secret plans', 'SECRET-INTERNAL');
  const roadmap = await writtenSpace(admin, writer, o, 'Roadmap ahead', 'ROADMAP-INTERNAL');
  const beta = await writtenSpace(admin, writer, o, 'Beta variant', 'BETA-INTERNAL');

  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Adaptive docs', spaces: [guides.id, secret.id, roadmap.id] }), 201);
  const path = `/v1/orgs/${o}/sites/${site.id}`;
  expectOk(await admin.rest('PUT', `${path}/adaptive-schema`, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'In the beta' } }, additionalProperties: false } }));
  const sections = expectOk(await admin.rest('GET', `${path}/sections`)).items;
  for (const hidden of sections.slice(1)) expectOk(await admin.rest('PATCH', `${path}/sections/${hidden.id}`, { condition: CONDITION }));
  expectOk(await admin.rest('POST', `${path}/section-groups`, { title: 'Internal team', sections: [sections[1].id] }), 201);
  const variant = expectOk(await admin.rest('POST', `${path}/site-spaces`, { spaceId: beta.id, sectionId: sections[0].id }), 201);
  expectOk(await admin.rest('PATCH', `${path}/site-spaces/${variant.id}`, { condition: CONDITION }));
  expectOk(await admin.rest('POST', `${path}/redirects`, { source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } }), 201);
  expectOk(await admin.rest('POST', `${path}/publish`));

  const pages = expectOk(await admin.rest('GET', `/v1/spaces/${guides.id}/revisions/${guides.revision}/pages`)).pages;
  const files = expectOk(await admin.rest('GET', `/v1/spaces/${guides.id}/revisions/${guides.revision}/files`)).items;
  const base = `${h.config.publishedUrl}/${o}/${site.id}`;
  const lookup = await h.app.fetch('http://localhost/v1/urls/published', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${base}/` }),
  });
  const found = await lookup.json();
  if (lookup.status !== 200) throw new Error(`lookup: ${lookup.status} ${JSON.stringify(found)}`);
  return {
    admin,
    writer,
    o,
    site,
    base,
    guides: { id: guides.id, revision: guides.revision, pageId: pages[0].id, pagePath: pages[0].path, fileId: files[0].id },
    guidesSiteSpaceId: sections[0].siteSpaces[0].id,
    secrets: [
      admin.email,
      writer.email,
      'Writer Person',
      'Adaptive Publisher Admin',
      'INTERNAL',
      'Secret plans',
      'Roadmap ahead',
      'Beta variant',
      'Internal team',
      'unsigned.beta',
      sections[1].id,
      sections[2].id,
      variant.id,
      secret.id,
      roadmap.id,
      beta.id,
    ],
    visitorToken: found.apiToken,
  };
}
