// The URL lookup of published sites and the apiToken it gives (issue 24 §1): what a visitor may see,
// tried as an outsider would try to see more.
import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { useHarness, type HttpResult } from '../support/harness.ts';

const h = useHarness();

/** A published site of two spaces (two sections: "Guides", the default, and "API"), each with a page. */
async function publishedSite(body: Record<string, unknown> = {}) {
  const { admin, organizationId: o } = await buildOrganization(h, 'Publisher');
  const spaces = [];
  for (const title of ['Guides', 'API']) {
    const space = await buildSpace(admin, o, { title });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }), 201);
    expectOk(
      await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', ref: 'start', title: 'Getting started', document: { markdown: `# ${title}` } }],
      }),
    );
    const merged = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
    spaces.push({ ...space, revision: merged.revision as string });
  }
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: spaces.map((s) => s.id), ...body }), 201);
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
  const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
  const base = `${h.config.publishedUrl}/${o}/${site.id}`;
  return { admin, o, site, spaces, sections, base };
}

const lookup = (body: Record<string, unknown>, token?: string) =>
  h.app.fetch('http://localhost/v1/urls/published', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

async function json(res: Response) {
  return { status: res.status, body: await res.json() };
}

/** A request with a site's apiToken. */
async function withToken(token: string, method: string, path: string, body?: unknown): Promise<HttpResult> {
  const res = await h.app.fetch(`http://localhost${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null } as HttpResult;
}

describe('POST /urls/published: what a published URL shows', () => {
  it('resolves site, section, site space, space, revision and page path, without a token; GitBook shape; the apiToken reads the revision', async () => {
    const { site, spaces, sections, base, o } = await publishedSite();
    const guides = await json(await lookup({ url: `${base}/getting-started` }));
    expect(guides.status).toBe(200);
    expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, guides.body)).toEqual([]);
    const siteBasePath = `${new URL(h.config.publishedUrl).pathname}/${o}/${site.id}/`;
    expect(guides.body).toMatchObject({
      site: site.id,
      siteSection: sections[0].id,
      space: spaces[0].id,
      revision: spaces[0].revision,
      pathname: 'getting-started',
      siteBasePath,
      basePath: siteBasePath,
      organization: o,
      complete: true,
      canonicalUrl: `${base}/getting-started`,
    });
    const api = (await json(await lookup({ url: `${base}/${sections[1].path}/getting-started` }))).body;
    expect(api).toMatchObject({ siteSection: sections[1].id, space: spaces[1].id, basePath: `${siteBasePath}${sections[1].path}/`, pathname: 'getting-started' });

    // The token: a JWT that lives an hour, the same for the same visitor for a while (renderers cache by it).
    const { exp } = decodeJwt(guides.body.apiToken);
    expect(exp! * 1000 - h.clock.now().getTime()).toBeGreaterThan(30 * 60_000);
    expect((await json(await lookup({ url: `${base}/` }))).body.apiToken).toBe(guides.body.apiToken);

    const pages = await withToken(guides.body.apiToken, 'GET', `/v1/spaces/${spaces[0].id}/revisions/${spaces[0].revision}/pages`);
    expect(pages.status).toBe(200);
    const pageId = pages.body.pages[0].id;
    const page = await withToken(guides.body.apiToken, 'GET', `/v1/spaces/${spaces[0].id}/revisions/${spaces[0].revision}/page/${pageId}?format=markdown`);
    expect(page.body.markdown).toBe('# Guides');
    // Through the GraphQL door too, with and without a token.
    const graph = await h.app.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($u: String!) { publishedContentByUrl(url: $u) }', variables: { u: `${base}/getting-started` } }),
    });
    expect((await graph.json()).data.publishedContentByUrl).toMatchObject({ space: spaces[0].id, pathname: 'getting-started' });
  });

  it('the GET form and a site on its own hostname', async () => {
    const { site, spaces } = await publishedSite();
    await h.db.site.update({ where: { id: site.id }, data: { hostname: 'docs.example.com' } });
    const res = await json(await h.app.fetch(`http://localhost/v1/urls/published?url=${encodeURIComponent('https://docs.example.com/getting-started')}`));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ site: site.id, space: spaces[0].id, siteBasePath: '/', basePath: '/', pathname: 'getting-started', canonicalUrl: 'https://docs.example.com/getting-started' });
  });

  it('unknown, unpublished, malformed: 404 or 400, never more', async () => {
    const { admin, o, site, base } = await publishedSite();
    for (const url of [`${h.config.publishedUrl}/${o}/nope/`, `${h.config.publishedUrl}/nope/${site.id}/`, 'https://unknown.example.com/', `${h.config.publishedUrl}/`]) {
      expect((await lookup({ url })).status, url).toBe(404);
    }
    restError({ ...(await json(await lookup({ url: 'not a url' }))), text: '' } as HttpResult, 400, 'url');
    restError({ ...(await json(await lookup({ url: `https://x.example/${'a'.repeat(3000)}` }))), text: '' } as HttpResult, 400, 'url');
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/unpublish`));
    expect((await lookup({ url: `${base}/` })).status).toBe(404);
  });
});

describe('the apiToken reads that site\'s published content, and nothing else', () => {
  it('refuses every other route, another site, an older revision, a forged or expired token; unpublishing closes it', async () => {
    const { admin, o, site, spaces, base } = await publishedSite();
    const token = (await json(await lookup({ url: `${base}/` }))).body.apiToken as string;
    const other = await buildSpace(admin, o, { title: 'Unpublished' });
    const s = spaces[0];
    // The space itself it reads (GitBook's renderer asks for it first), as a visitor sees it.
    expect((await withToken(token, 'GET', `/v1/spaces/${s.id}`)).body).toMatchObject({ id: s.id, permissions: { view: true, edit: false } });
    for (const [method, path] of [
      ['GET', `/v1/spaces/${s.id}/content`],
      ['GET', `/v1/spaces/${s.id}/change-requests`],
      ['GET', `/v1/orgs/${o}/members`],
      ['GET', `/v1/orgs/${o}/sites/${site.id}/share-links`],
      ['GET', `/v1/orgs/${o}/sites/${site.id}/site-spaces`],
      ['GET', '/v1/user'],
      ['POST', `/v1/spaces/${s.id}/change-requests`],
      ['DELETE', `/v1/spaces/${s.id}`],
    ]) {
      expect((await withToken(token, method, path, method === 'POST' ? { subject: 'x' } : undefined)).status, `${method} ${path}`).toBe(403);
    }
    const graph = await h.app.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ user { id } }' }),
    });
    expect((await graph.json()).errors[0].extensions.code).toBe('FORBIDDEN');
    // Another space, an older revision of this one, a guessed revision: as unknown as nothing.
    const unknown = await withToken(token, 'GET', `/v1/spaces/no-such/revisions/${s.revision}/pages`);
    for (const path of [`/v1/spaces/${other.id}/revisions/${other.revision}/pages`, `/v1/spaces/${s.id}/revisions/${spaces[1].revision}/pages`, `/v1/spaces/${s.id}/revisions/guess/pages`]) {
      const res = await withToken(token, 'GET', path);
      expect(res.status, path).toBe(404);
    }
    expect(unknown.status).toBe(404);
    // Forged: signed with another key, or altered.
    const forged = await new SignJWT({ kind: 'site-reader', org: o }).setProtectedHeader({ alg: 'HS256' }).setSubject(site.id).setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(32)));
    const [head, , signature] = token.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ kind: 'site-reader', sub: site.id, org: o, exp: 9999999999 })).toString('base64url')}.${signature}`;
    for (const bad of [forged, altered]) expect((await withToken(bad, 'GET', `/v1/spaces/${s.id}/revisions/${s.revision}/pages`)).status).toBe(401);
    // Unpublished: closed at once; expired: 401.
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/unpublish`));
    expect((await withToken(token, 'GET', `/v1/spaces/${s.id}/revisions/${s.revision}/pages`)).status).toBe(404);
    expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
    expect((await withToken(token, 'GET', `/v1/spaces/${s.id}/revisions/${s.revision}/pages`)).status).toBe(200);
    h.clock.advance(2 * 3600_000);
    expect((await withToken(token, 'GET', `/v1/spaces/${s.id}/revisions/${s.revision}/pages`)).status).toBe(401);
  });
});

describe('who may see a site', () => {
  it('share-link: only with an active link\'s key; deactivating it closes lookups and tokens at once', async () => {
    const { admin, o, site, spaces, base } = await publishedSite({ visibility: 'share-link' });
    const link = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    expect((await lookup({ url: `${base}/` })).status).toBe(404);
    expect((await lookup({ url: `${base}/?shareKey=wrong` })).status).toBe(404);
    const found = (await json(await lookup({ url: `${base}/?shareKey=${encodeURIComponent(key)}` }))).body;
    expect(found).toMatchObject({ space: spaces[0].id, shareKey: key });
    const read = () => withToken(found.apiToken, 'GET', `/v1/spaces/${spaces[0].id}/revisions/${spaces[0].revision}/pages`);
    expect((await read()).status).toBe(200);
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/share-links/${link.id}`, { active: false }));
    expect((await read()).status).toBe(404);
    expect((await lookup({ url: `${base}/?shareKey=${encodeURIComponent(key)}` })).status).toBe(404);
  });

  it('visitor-auth: a JWT signed with the site\'s key; without one, where to authenticate; a new key voids old tokens', async () => {
    const { admin, o, site, spaces, base } = await publishedSite({ visibility: 'visitor-auth' });
    const auth = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/publishing/auth`));
    expect(validateGitBookResponse('getSitePublishingAuthById', 200, auth)).toEqual([]);
    const sign = (key: string, claims: Record<string, unknown> = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(new Date(h.clock.now().getTime() + 3600_000)).sign(new TextEncoder().encode(key));
    expect((await lookup({ url: `${base}/` })).status).toBe(404);
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/publishing/auth`, { fallbackURL: 'https://auth.example.com/login' }));
    const redirect = (await json(await lookup({ url: `${base}/page`, visitor: { jwtToken: await sign('wrong-key') } }))).body;
    expect(redirect).toEqual({ target: 'external', site: site.id, redirect: `https://auth.example.com/login?location=${encodeURIComponent(new URL(`${base}/page`).pathname)}` });
    expect(validateGitBookResponse('resolvePublishedContentByUrl', 200, redirect)).toEqual([]);
    const visitorToken = await sign(auth.privateKey, { plan: 'pro' });
    const found = (await json(await lookup({ url: `${base}/`, visitor: { jwtToken: visitorToken } }))).body;
    expect(found.space).toBe(spaces[0].id);
    const read = () => withToken(found.apiToken, 'GET', `/v1/spaces/${spaces[0].id}/revisions/${spaces[0].revision}/pages`);
    expect((await read()).status).toBe(200);
    const renewed = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publishing/auth/regenerate`));
    expect(renewed.privateKey).not.toBe(auth.privateKey);
    expect((await read()).status).toBe(404);
    expect((await json(await lookup({ url: `${base}/`, visitor: { jwtToken: visitorToken } }))).body).toMatchObject({ target: 'external' });
    // Only the site's managers read or change the key.
    const reader = (await buildOrganization(h, 'Outside')).admin;
    restError(await reader.rest('GET', `/v1/orgs/${o}/sites/${site.id}/publishing/auth`), 404);
  });

  it('adaptive content: a section whose condition fails for the visitor is not there; unsigned claims count only as declared, under `unsigned`', async () => {
    const { admin, o, site, sections, base } = await publishedSite();
    expectOk(
      await admin.rest('PUT', `/v1/orgs/${o}/sites/${site.id}/adaptive-schema`, {
        jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'In the beta' } }, additionalProperties: false },
      }),
    );
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/sections/${sections[1].id}`, { condition: 'visitor.claims.unsigned.beta == true' }));
    const url = `${base}/${sections[1].path}/getting-started`;
    // Hidden: the path is then a page path of the default section.
    expect((await json(await lookup({ url }))).body).toMatchObject({ siteSection: sections[0].id, pathname: `${sections[1].path}/getting-started` });
    expect((await json(await lookup({ url, visitor: { unsignedClaims: { beta: true } } }))).body).toMatchObject({ siteSection: sections[1].id, pathname: 'getting-started' });
    expect((await json(await lookup({ url, visitor: { unsignedClaims: { other: true, beta: 'yes' } } }))).body.siteSection).toBe(sections[0].id);
  });

  it('the lookup costs at most 3 statements', async () => {
    const { base } = await publishedSite();
    await lookup({ url: `${base}/` });
    await new Promise((r) => setTimeout(r, 50));
    const before = h.store.queries.length;
    expect((await lookup({ url: `${base}/getting-started` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.store.queries.length - before).toBeLessThanOrEqual(3);
  });
});

describe('the apiToken also reads the site as published', () => {
  it('its profile, structure and customization; not another site\'s; sections hidden from the visitor are not there', async () => {
    const { admin, o, site, sections, base } = await publishedSite();
    expectOk(await admin.rest('PATCH', `/v1/orgs/${o}/sites/${site.id}/sections/${sections[1].id}`, { condition: 'visitor.claims.unsigned.beta == true' }));
    const token = (await json(await lookup({ url: `${base}/` }))).body.apiToken as string;
    const path = `/v1/orgs/${o}/sites/${site.id}`;
    const structure = await withToken(token, 'GET', `${path}/structure`);
    expect(structure.status, structure.text).toBe(200);
    expect(structure.body.structure.map((item: any) => item.id)).toEqual([sections[0].id]);
    const profile = await withToken(token, 'GET', `${path}/published`);
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body.structure.structure.map((s: any) => s.id)).toEqual([sections[0].id]);
    expect((await withToken(token, 'GET', `${path}/customization`)).body).toMatchObject({ title: 'Docs' });
    // Writes and management reads stay closed; another site is unknown.
    expect((await withToken(token, 'PUT', `${path}/customization`, {})).status).toBe(403);
    expect((await withToken(token, 'GET', `${path}/share-links`)).status).toBe(403);
    const other = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Other site' }), 201);
    expect((await withToken(token, 'GET', `/v1/orgs/${o}/sites/${other.id}/structure`)).status).toBe(404);
  });
});

describe('one GraphQL query per page', () => {
  const QUERY = `query($u: String!) { publishedPage(url: $u) {
    lookup customization pages page
    structure { type structure { ... on SiteSection { id title siteSpaces { id space { id title } } } ... on SiteSectionGroup { id title } } }
  } }`;
  const run = async (url: string) => {
    const res = await h.app.fetch('http://localhost/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY, variables: { u: url } }) });
    const body = await res.json();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data.publishedPage;
  };

  it('draws a page without a token: lookup, structure, customization, tree and page; the same statements for a larger site', async () => {
    const small = await publishedSite();
    const view = await run(`${small.base}/getting-started`);
    expect(view.lookup).toMatchObject({ space: small.spaces[0].id, pathname: 'getting-started' });
    expect(view.structure.structure.map((s: any) => s.id)).toEqual(small.sections.map((s: any) => s.id));
    expect(view.customization).toMatchObject({ title: 'Docs' });
    expect(view.pages.map((p: any) => p.title)).toEqual(['Getting started']);
    expect(view.page).toMatchObject({ title: 'Getting started', document: { object: 'document' } });
    // The root of the variant draws its first page.
    expect((await run(`${small.base}/`)).page.title).toBe('Getting started');
    // An unknown page: the rest is there, the page is null.
    expect((await run(`${small.base}/nope`)).page).toBeNull();

    const large = await publishedSite();
    const cr = expectOk(await large.admin.rest('POST', `/v1/spaces/${large.spaces[0].id}/change-requests`, { subject: 'More' }), 201);
    expectOk(
      await large.admin.rest('POST', `/v1/spaces/${large.spaces[0].id}/change-requests/${cr.id}/content`, {
        changes: Array.from({ length: 40 }, (_, i) => ({ operation: 'insert_page', title: `Extra ${i}`, document: { markdown: `# Extra ${i}` } })),
      }),
    );
    expectOk(await large.admin.rest('POST', `/v1/spaces/${large.spaces[0].id}/change-requests/${cr.id}/merge`));
    const count = async (url: string) => {
      await run(url); // warm: the token key, the content cache
      await new Promise((r) => setTimeout(r, 50));
      const before = h.store.queries.length;
      await run(url);
      await new Promise((r) => setTimeout(r, 50));
      return h.store.queries.length - before;
    };
    const [s, l] = [await count(`${small.base}/getting-started`), await count(`${large.base}/extra-20`)];
    expect(l).toBe(s);
    expect(l).toBeLessThanOrEqual(8);
  });

  it('the same statements for a site of two sections and of eight (in a group), through both doors', async () => {
    const statementsFor = async (sectionCount: number) => {
      const { admin, organizationId: o } = await buildOrganization(h, `Sections ${sectionCount}`);
      const spaces = [];
      for (let i = 0; i < sectionCount; i++) spaces.push(await buildSpace(admin, o, { title: `Part ${i}` }));
      const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: spaces.map((sp) => sp.id) }), 201);
      const sections = expectOk(await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).items;
      expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/section-groups`, { title: 'More', sections: sections.slice(1).map((sc: any) => sc.id) }), 201);
      expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
      const counted = async (action: () => Promise<unknown>) => {
        await action();
        await new Promise((r) => setTimeout(r, 50));
        const before = h.store.queries.length;
        await action();
        await new Promise((r) => setTimeout(r, 50));
        return h.store.queries.length - before;
      };
      return {
        page: await counted(() => run(`${h.config.publishedUrl}/${o}/${site.id}/`)),
        structure: await counted(() => admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/structure`)),
        profile: await counted(() => admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/published`)),
      };
    };
    const [two, eight] = [await statementsFor(2), await statementsFor(8)];
    expect(eight).toEqual(two);
  });
});
