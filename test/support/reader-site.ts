import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from './assertions.ts';
import type { Caller, Harness } from './harness.ts';

/**
 * A published site built through the API as its publishers would (tests of the reader, issue 25): spaces
 * with nested pages written by merged change requests, a site over them, published.
 */
export interface PageSpec {
  title: string;
  markdown?: string;
  ref?: string;
  /** The `ref` of the parent page (inserted earlier in the same list). */
  into?: string;
  hidden?: boolean;
  description?: string;
  emoji?: string;
  icon?: string;
  noIndex?: boolean;
}

export const GUIDE_PAGES: PageSpec[] = [
  { title: 'Getting started', ref: 'start', description: 'First steps', markdown: '# Getting started\n\nWelcome to the **guide**.\n\n## Install\n\nRun `npm install`.\n\n```js\nconst x = 1;\n```\n\n## Configure\n\nSet the options.\n' },
  { title: 'Advanced', ref: 'advanced', markdown: '# Advanced\n\nDeep topics.\n' },
  { title: 'Clusters', ref: 'clusters', into: 'advanced', markdown: '# Clusters\n\nRun many **kubernetes** nodes.\n\n## Scaling\n\nScale out.\n' },
  { title: 'Secret notes', ref: 'secret', hidden: true, markdown: '# Secret\n\nHidden but reachable.\n' },
  { title: 'Last page', ref: 'last', markdown: '# Last\n\nThe end.\n' },
];

/** A space whose content is `pages` (merged); answers the space and its revision. */
export async function spaceWithPages(admin: Caller, organizationId: string, title: string, pages: PageSpec[]) {
  const space = await buildSpace(admin, organizationId, { title });
  const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' }), 201);
  expectOk(
    await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: pages.map((p) => ({
        operation: 'insert_page',
        title: p.title,
        ...(p.ref ? { ref: p.ref } : {}),
        ...(p.into ? { into: p.into } : {}),
        ...(p.hidden ? { hidden: true } : {}),
        ...(p.description ? { description: p.description } : {}),
        ...(p.emoji ? { emoji: p.emoji } : {}),
        ...(p.icon ? { icon: p.icon } : {}),
        ...(p.noIndex ? { noIndex: true } : {}),
        document: { markdown: p.markdown ?? `# ${p.title}\n` },
      })),
    }),
  );
  const merged = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`));
  return { ...space, revision: merged.revision as string };
}

/** A published site over spaces of the given pages (one section per space when several); its base URL under PUBLISHED_URL. */
export async function readerSite(h: Harness, spaces: { title: string; pages: PageSpec[] }[] = [{ title: 'Guides', pages: GUIDE_PAGES }], body: Record<string, unknown> = {}) {
  const { admin, organizationId: o } = await buildOrganization(h, 'Publisher');
  const built = [];
  for (const { title, pages } of spaces) built.push(await spaceWithPages(admin, o, title, pages));
  const site = expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: built.map((s) => s.id), ...body }), 201);
  expectOk(await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/publish`));
  const base = `${h.config.publishedUrl}/${o}/${site.id}`;
  return { admin, o, site, spaces: built, base };
}

/** GET through the app (in process), with headers; the body as text. */
export async function read(h: Harness, url: string, headers: Record<string, string> = {}) {
  const res = await h.app.fetch(url, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: res.status === 304 ? '' : await res.text() };
}
