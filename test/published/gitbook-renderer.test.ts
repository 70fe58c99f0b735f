// GitBook's open-source renderer (GitbookIO/gitbook, packages/gitbook) reading one of our sites (issue 37):
// its calls for one page view of every kind, made as it makes them — the official client, the same
// parameters, the URL lookup of every prefix of a path at once — each answer checked against the shapes
// of @gitbook/api. The calls and what each must answer are listed in docs/published-sites.md.
import type { GitBookAPI } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';
import { LOGO_PNG } from '../support/fixture-site.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';

const s = useClientServer();
let sites = 0;
const LOOSE = { ignoreMissing: ['MarkdownDocument.markdown'] };

const PAGE = [
  'Install it with npm:',
  '',
  '{% code title="install.sh" %}',
  '```sh',
  'npm install acme',
  '```',
  '{% endcode %}',
  '',
  '{% hint style="info" %}',
  'Node.js 20 or later.',
  '{% endhint %}',
  '',
  '| Option | Default |',
  '| --- | --- |',
  '| port | 4000 |',
  '',
  '![Diagram](./diagram)',
].join('\n');

/** Writes pages into a new space through a merged change request; `pages` are [ref, title, markdown, parent ref?]. */
async function writtenSpace(api: GitBookAPI, token: string, orgId: string, title: string, pages: [string, string, string, string?][]) {
  const space = (await api.orgs.createSpace(orgId, { title })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: `${title} pages` })).data;
  const ids = new Map<string, string>();
  for (const [ref, pageTitle, markdown, parent] of pages) {
    const changes: object[] = [{ operation: 'insert_page', ref, title: pageTitle, document: { markdown }, ...(parent ? { into: ids.get(parent) } : {}) }];
    if (ref === 'install') changes.push({ operation: 'insert_files', files: [{ name: 'diagram.png', ref: 'diagram', contentType: 'image/png', base64: LOGO_PNG.toString('base64') }] });
    // Our own answer (compat=false) names the pages it made: the next page goes into one of them.
    const res = await fetch(`${s.endpoint}/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
    });
    const body = (await res.json()) as { changes: { page: { id: string } }[] };
    expect(res.status, JSON.stringify(body)).toBe(200);
    ids.set(ref, body.changes[0].page.id);
  }
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  return space;
}

/** A site on its own hostname: Guides (default section, pages three deep, a French variant) and API reference. */
async function rendererSite() {
  const host = `docs${++sites}.renderer-test.example`;
  const ada = await s.newUser('Ada');
  const api = ada.api;
  const org = (await api.orgs.createOrganization({ title: 'Renderer' })).data;
  const guides = await writtenSpace(api, ada.token, org.id, 'Guides', [
    ['start', 'Getting started', 'Welcome to Acme.'],
    ['install', 'Install', PAGE, 'start'],
    ['linux', 'Linux', 'On Linux, use the package.', 'install'],
  ]);
  const french = await writtenSpace(api, ada.token, org.id, 'Guides FR', [['start', 'Premiers pas', 'Bienvenue.']]);
  const reference = await writtenSpace(api, ada.token, org.id, 'API reference', [['intro', 'Intro', 'The API.']]);
  const site = (await api.orgs.createSite(org.id, { title: 'Acme docs', spaces: [guides.id, reference.id] })).data;
  const sections = (await api.orgs.listSiteSections(org.id, site.id)).data.items;
  await api.orgs.updateSiteSectionById(org.id, site.id, sections[0].id, { path: 'guides' } as never);
  await api.orgs.updateSiteSectionById(org.id, site.id, sections[1].id, { path: 'api-reference' } as never);
  const variant = (await api.orgs.addSpaceToSite(org.id, site.id, { spaceId: french.id, sectionId: sections[0].id } as never)).data;
  await api.orgs.updateSiteSpaceById(org.id, site.id, variant.id, { path: 'fr' } as never);
  await api.orgs.updateSiteById(org.id, site.id, { hostname: host } as never);
  await api.orgs.publishSite(org.id, site.id);
  return { host, api, token: ada.token, org, site, guides, french, reference, sections, variant };
}

type Lookup = { site: string; siteSection?: string; siteSpace: string; space: string; revision: string; pathname: string; basePath: string; apiToken: string; complete: boolean; canonicalUrl: string };

/**
 * The renderer's lookup of a URL: the site's root with the whole path as the rest, and each prefix of
 * up to four segments, asked at once; the answer kept is the first complete one (or the full URL's). The
 * order answers arrive in is not fixed, so every complete answer must name the same content.
 */
async function rendererLookup(url: string) {
  const target = new URL(url);
  const segments = target.pathname.slice(1).split('/').filter(Boolean);
  const prefixes = [{ path: '/', rest: segments }];
  for (let i = 1; i <= Math.min(4, segments.length); i++) prefixes.push({ path: `/${segments.slice(0, i).join('/')}`, rest: segments.slice(i) });
  const answers = await Promise.all(
    prefixes.map(async ({ path, rest }) => {
      const res = await fetch(`${s.endpoint}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${target.origin}${path}`, redirectOnError: false }) });
      const body = res.status === 200 ? ((await res.json()) as Lookup) : null;
      if (body) expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, body), path).toEqual([]);
      return { path, rest, body, primary: rest.length === 0 };
    }),
  );
  const kept = answers.filter((a) => a.body && (a.primary || a.body.complete));
  const resolved = kept.map((a) => ({
    siteSection: a.body!.siteSection,
    siteSpace: a.body!.siteSpace,
    space: a.body!.space,
    pathname: [a.body!.pathname, ...a.rest].filter(Boolean).join('/'),
  }));
  for (const other of resolved) expect(other, `${url}: every complete answer names the same content`).toEqual(resolved[0]);
  const first = kept[0];
  return first ? { ...first.body!, pathname: resolved[0].pathname } : null;
}

/** The renderer's reads for one page view, with the apiToken, each checked against GitBook's shapes. */
async function pageView(api: GitBookAPI, orgId: string, lookup: Lookup) {
  const published = (await api.orgs.getPublishedContentSite(orgId, lookup.site)).data;
  expect(validateGitBookResponse('getPublishedContentSite', 200, published, LOOSE)).toEqual([]);
  const space = (await api.spaces.getSpaceById(lookup.space)).data;
  expect(validateGitBookResponse('getSpaceById', 200, space)).toEqual([]);
  const revision = (await api.spaces.getRevisionById(lookup.space, lookup.revision, { metadata: true })).data;
  // A merge revision's change request is the organization's (issue 36): the one field left out.
  expect(validateGitBookResponse('getRevisionById', 200, revision, { ignoreMissing: ['mergedFrom', 'MarkdownDocument.markdown'] })).toEqual([]);
  if (!lookup.pathname) return { published, space, revision, page: null };
  const page = (await api.spaces.getPageInRevisionByPath(lookup.space, lookup.revision, lookup.pathname, {})).data;
  expect(validateGitBookResponse('getPageInRevisionByPath', 200, page, LOOSE)).toEqual([]);
  const document = (await api.spaces.getPageDocumentInRevisionById(lookup.space, lookup.revision, page.id, { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' } as never)).data;
  expect(validateGitBookResponse('getPageDocumentInRevisionById', 200, document)).toEqual([]);
  const markdown = (await api.spaces.getPageInRevisionById(lookup.space, lookup.revision, page.id, { format: 'markdown', 'format.markdown.refs': 'stable' } as never)).data;
  expect(validateGitBookResponse('getPageInRevisionById', 200, markdown, LOOSE)).toEqual([]);
  const links = (await api.spaces.listRevisionPageMetaLinks(lookup.space, lookup.revision, page.id)).data;
  expect(validateGitBookResponse('listRevisionPageMetaLinks', 200, links)).toEqual([]);
  return { published, space, revision, page, document, markdown };
}

describe("GitBook's renderer on a site with a hostname, sections and a variant", () => {
  it('resolves every URL form the renderer produces, and reads every page kind as it does', { timeout: 120_000 }, async () => {
    const { host, api, org, site, guides, french, reference, sections, variant } = await rendererSite();
    // A site on its own hostname is published there, with PUBLISHED_URL's scheme (http here).
    const root = `${new URL(s.endpoint).protocol}//${host}`;
    const cases: [string, { space: string; section: string; pathname: string; canonical: string }][] = [
      ['/', { space: guides.id, section: sections[0].id, pathname: '', canonical: `${root}/` }],
      ['/getting-started', { space: guides.id, section: sections[0].id, pathname: 'getting-started', canonical: `${root}/getting-started` }],
      ['/getting-started/install/linux', { space: guides.id, section: sections[0].id, pathname: 'getting-started/install/linux', canonical: `${root}/getting-started/install/linux` }],
      ['/api-reference', { space: reference.id, section: sections[1].id, pathname: '', canonical: `${root}/api-reference/` }],
      ['/api-reference/intro', { space: reference.id, section: sections[1].id, pathname: 'intro', canonical: `${root}/api-reference/intro` }],
      ['/guides/fr', { space: french.id, section: sections[0].id, pathname: '', canonical: `${root}/guides/fr/` }],
      ['/guides/fr/premiers-pas', { space: french.id, section: sections[0].id, pathname: 'premiers-pas', canonical: `${root}/guides/fr/premiers-pas` }],
      // Our earlier form of the default section's variant still resolves, to GitBook's canonical address.
      ['/fr/premiers-pas', { space: french.id, section: sections[0].id, pathname: 'premiers-pas', canonical: `${root}/guides/fr/premiers-pas` }],
      ['/guides/getting-started', { space: guides.id, section: sections[0].id, pathname: 'getting-started', canonical: `${root}/getting-started` }],
    ];
    for (const [path, expected] of cases) {
      const found = await rendererLookup(`${root}${path}`);
      expect(found, path).not.toBeNull();
      expect({ space: found!.space, section: found!.siteSection, pathname: found!.pathname }, path).toEqual({ space: expected.space, section: expected.section, pathname: expected.pathname });
      const direct = (await (await fetch(`${s.endpoint}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${root}${path}` }) })).json()) as Lookup;
      expect(direct.canonicalUrl, path).toBe(expected.canonical);
      // Complete but at the site's root, where a section or the variant of one may follow.
      expect(direct.complete, path).toBe(path !== '/');

      const { GitBookAPI } = await import('@gitbook/api');
      const reader = new GitBookAPI({ endpoint: s.endpoint, authToken: found!.apiToken });
      const view = await pageView(reader, org.id, found!);
      // What the renderer draws from: the site's own address, no ads, a customization per site space.
      expect(view.published.site.urls.published).toBe(root);
      expect(view.published.site).not.toHaveProperty('ads');
      const structure = view.published.structure.structure as { id: string; siteSpaces: { id: string; urls: { published: string } }[]; urls: { published: string } }[];
      expect(structure.map((section) => section.urls.published)).toEqual([root, `${root}/api-reference`]);
      expect(structure[0].siteSpaces.map((siteSpace) => siteSpace.urls.published)).toEqual([root, `${root}/guides/fr`]);
      const siteSpaceIds = structure.flatMap((section) => section.siteSpaces.map((siteSpace) => siteSpace.id));
      expect(Object.keys(view.published.customizations.siteSpaces).sort()).toEqual([...siteSpaceIds].sort());
      expect(siteSpaceIds).toContain(variant.id);
      expect(view.space.permissions).toEqual({
        view: true,
        access: false,
        admin: false,
        viewInviteLinks: false,
        edit: false,
        triggerGitSync: false,
        comment: false,
        merge: false,
        review: false,
        installIntegration: false,
      });
      if (view.page) expect(view.page.path).toBe(expected.pathname);
    }

    // The site's root and a section with variants are incomplete: a further segment may follow.
    const incomplete = async (path: string) =>
      ((await (await fetch(`${s.endpoint}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${root}${path}` }) })).json()) as Lookup).complete;
    expect(await incomplete('')).toBe(false);
    expect(await incomplete('/guides')).toBe(false);

    // A page that is not there: the full URL's answer is kept (its page read 404s); search still answers.
    const missing = await rendererLookup(`${root}/nope/deeper`);
    expect(missing).toMatchObject({ space: guides.id, pathname: 'nope/deeper' });
    const { GitBookAPI } = await import('@gitbook/api');
    const reader = new GitBookAPI({ endpoint: s.endpoint, authToken: missing!.apiToken });
    await expectApiError(reader.spaces.getPageInRevisionByPath(missing!.space, missing!.revision, 'nope/deeper', {}), 404);
    await expectApiError(reader.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/nope/deeper' }), 404);
    const search = (await reader.orgs.searchSiteContent(org.id, site.id, { query: 'npm' } as never)).data;
    expect(validateGitBookResponse('searchSiteContent', 200, search)).toEqual([]);
    // The renderer links a result from its site space's urls.published (checked above: the hostname's).
    expect((search.items[0] as { pages: { path: string }[] }).pages.map((page) => page.path)).toContain('getting-started/install');
  });

  it("every value GitBook declares for evaluated and dereferenced, on every route that has them; others are a 400 naming the parameter", async () => {
    const { api, token, guides } = await rendererSite();
    const pages = (await api.spaces.listPages(guides.id)).data.pages;
    const pageId = pages[0].id;
    const revision = (await api.spaces.getSpaceById(guides.id)).data.revision;
    const paths = [
      `/spaces/${guides.id}/content/page/${pageId}`,
      `/spaces/${guides.id}/content/path/getting-started`,
      `/spaces/${guides.id}/revisions/${revision}/page/${pageId}`,
      `/spaces/${guides.id}/revisions/${revision}/page/${pageId}/document`,
      `/spaces/${guides.id}/revisions/${revision}/path/getting-started`,
    ];
    const get = async (path: string) => {
      const res = await fetch(`${s.endpoint}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      return res.status === 200 ? 200 : { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
    };
    for (const path of paths) {
      for (const query of ['evaluated=true', 'evaluated=false', 'evaluated=deterministic-only', 'dereferenced=true', 'dereferenced=false', 'dereferenced=reusable-contents', 'evaluated=deterministic-only&dereferenced=reusable-contents']) {
        expect(await get(`${path}?${query}`), `${path}?${query}`).toBe(200);
      }
      for (const [query, name] of [['evaluated=yes', 'evaluated'], ['dereferenced=deterministic-only', 'dereferenced'], ['evaluated=reusable-contents', 'evaluated']]) {
        const refused = (await get(`${path}?${query}`)) as { status: number; message: string };
        expect(refused.status, `${path}?${query}`).toBe(400);
        expect(refused.message).toContain(name);
      }
    }
  });
});
