import { restRoutes } from '../../src/schema.ts';
import { BASE, type Caller } from './harness.ts';

/** Every read: the routes of `Query` root fields, whatever their method. */
export const READ_ROUTES = Object.entries(restRoutes)
  .filter(([key]) => key.startsWith('Query.'))
  .map(([, route]) => route);

export interface ReadAnswer {
  path: string;
  url: string;
  /** What the caller sent (URL and body): an ID echoed from it tells them nothing. */
  given: string;
  status: number;
  text: string;
}

/** What the reads that take a body are asked: `query` for searches; the site's published address for the lookup. */
const bodyOf = (path: string, ids: Record<string, string>, query: string) =>
  path.endsWith('/search') ? { query } : path === '/urls/published' ? { url: ids.publishedUrl ?? `${BASE}/${ids.organizationId}/${ids.siteId}/` } : {};
const fill = (path: string, ids: Record<string, string>) =>
  `/v1${path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ids[name] ?? 'unknown0000000000001'))}`;

/** Walks every read route as `caller`, path parameters from `ids`, searching for `query`; the answers by route path. */
export async function walkReads(caller: Pick<Caller, 'rest'>, ids: Record<string, string>, query: string): Promise<ReadAnswer[]> {
  const answers: ReadAnswer[] = [];
  for (const route of READ_ROUTES) {
    const get = route.method === 'GET';
    const url = fill(route.path, ids) + (get && route.path.endsWith('/search') ? `?query=${encodeURIComponent(query)}` : '');
    const body = get ? undefined : bodyOf(route.path, ids, query);
    const res = await caller.rest(route.method, url, body);
    answers.push({ path: route.path, url, given: `${url} ${JSON.stringify(body ?? null)}`, status: res.status, text: res.text });
  }
  return answers;
}

/** The answers that name one of `markers` the caller did not send themselves. */
export const leaksOf = (answers: ReadAnswer[], markers: string[]) =>
  answers.filter((a) => markers.some((marker) => a.text.includes(marker) && !a.given.includes(marker))).map((a) => `${a.url} → ${a.status}: ${a.text.slice(0, 200)}`);
