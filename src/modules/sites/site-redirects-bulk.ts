import type { Prisma, SiteRedirect } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, ConflictError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { siteFor } from './site-access.ts';
import { checkSource, LAYOUT_QUERY, parseDestination, resolveDestinations, type ParsedDestination, type SiteWithLayout, type Stored } from './site-redirect-inputs.ts';

/**
 * `PUT …/redirects` (GitBook's bulkUpsertSiteRedirects): up to 500 operations on a site's redirects —
 * create or update the live or draft rule of a source (`intent` live, the default, or draft), delete it
 * (`destination: null`), or publish a source's draft as its live rule (`intent: publish`) — applied in
 * order, all in one transaction, each answered with its status. A malformed item refuses the whole
 * request (400 naming it, e.g. `redirects[3].source`); an item naming what the site does not have (a
 * section, a site space, a page, a draft to publish) is answered `error` and changes nothing itself.
 * Statements: the site, the rules of the sources named, the pages named (one per site space involved),
 * then the deletions, the creations and one update per changed rule.
 */
export const MAX_BULK_REDIRECTS = 500;

type Intent = 'live' | 'draft' | 'publish';
type Item =
  | { source: string; intent: 'publish' }
  | { source: string; intent: 'live' | 'draft'; destination: ParsedDestination | null; captureWildcard?: boolean; permanent?: boolean };

function parseItem(value: unknown, at: number): Item {
  const field = `redirects[${at}]`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadRequestError(`Invalid "${field}": an object is expected`);
  const item = value as Record<string, unknown>;
  const source = checkSource(`${field}.source`, item.source);
  const intent = (item.intent ?? 'live') as Intent;
  if (!['live', 'draft', 'publish'].includes(intent)) throw new BadRequestError(`Invalid "${field}.intent": one of live, draft, publish is expected`);
  if (intent === 'publish') return { source, intent };
  if (!('destination' in item)) throw new BadRequestError(`Invalid "${field}.destination": required (null deletes the rule)`);
  for (const flag of ['captureWildcard', 'permanent'] as const) {
    if (item[flag] !== undefined && typeof item[flag] !== 'boolean') throw new BadRequestError(`Invalid "${field}.${flag}": a boolean is expected`);
  }
  return {
    source,
    intent,
    destination: item.destination === null ? null : parseDestination(`${field}.destination`, item.destination, true),
    captureWildcard: item.captureWildcard as boolean | undefined,
    permanent: item.permanent as boolean | undefined,
  };
}

type Result =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

export async function bulkUpsertSiteRedirects(ctx: Context, organizationId: string, siteId: string, redirects: unknown): Promise<{ results: Result[] }> {
  if (!Array.isArray(redirects) || redirects.length < 1 || redirects.length > MAX_BULK_REDIRECTS) {
    throw new BadRequestError(`Invalid "redirects": 1 to ${MAX_BULK_REDIRECTS} redirects are expected`);
  }
  const items = redirects.map(parseItem);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit', LAYOUT_QUERY);
  const now = ctx.clock.now();
  try {
    return await ctx.db.$transaction((tx) => apply(tx, site as typeof site & SiteWithLayout, items, now), TRANSACTION_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("The site's redirects changed meanwhile: send the request again");
    throw error;
  }
}

async function apply(tx: Prisma.TransactionClient, site: { id: string } & SiteWithLayout, items: Item[], now: Date): Promise<{ results: Result[] }> {
  const sources = [...new Set(items.map((item) => item.source))];
  const before = await tx.siteRedirect.findMany({ where: { siteId: site.id, source: { in: sources } } });
  const key = (source: string, draft: boolean) => `${draft ? 'draft' : 'live'} ${source}`;
  // The rules as the items leave them (null: deleted), from the rules as they were.
  const state = new Map<string, SiteRedirect | null>(before.map((rule) => [key(rule.source, rule.draft), rule]));
  const initial = new Map(state);
  const withDestination = items.flatMap((item, at) => ('destination' in item && item.destination ? [{ at, field: `redirects[${at}].destination`, destination: item.destination }] : []));
  const resolved = new Map<number, Stored | string>();
  (await resolveDestinations(tx, site, withDestination)).forEach((stored, i) => resolved.set(withDestination[i].at, stored));

  const put = (source: string, draft: boolean, fields: Stored & { captureWildcard: boolean; permanent: boolean }) => {
    const current = state.get(key(source, draft)) ?? null;
    const rule: SiteRedirect = current
      ? { ...current, ...fields, updatedAt: now, changedAt: now }
      : { id: newId(), siteId: site.id, source, draft, ...fields, createdAt: now, updatedAt: null, changedAt: now };
    state.set(key(source, draft), rule);
    return { rule, created: !current };
  };

  const results = items.map((item, at): Result => {
    if (item.intent === 'publish') {
      const draft = state.get(key(item.source, true));
      if (!draft) return { status: 'error', source: item.source, draft: false, error: `No draft redirect from "${item.source}" to publish` };
      const { id: _id, source: _source, draft: _draft, siteId: _siteId, createdAt: _c, updatedAt: _u, changedAt: _ch, ...fields } = draft;
      const { rule } = put(item.source, false, fields);
      state.set(key(item.source, true), null);
      return { status: 'published', source: item.source, draft: false, id: rule.id };
    }
    const draft = item.intent === 'draft';
    if (!item.destination) {
      if (!state.get(key(item.source, draft))) return { status: 'error', source: item.source, draft, error: `No ${item.intent} redirect from "${item.source}" to delete` };
      state.set(key(item.source, draft), null);
      return { status: 'deleted', source: item.source, draft };
    }
    const stored = resolved.get(at)!;
    if (typeof stored === 'string') return { status: 'error', source: item.source, draft, error: stored };
    const current = state.get(key(item.source, draft));
    const { rule, created } = put(item.source, draft, {
      ...stored,
      captureWildcard: item.captureWildcard ?? false,
      permanent: item.permanent ?? current?.permanent ?? false,
    });
    return { status: created ? 'created' : 'updated', source: item.source, draft, id: rule.id };
  });

  // The difference between the rules as they were and as the items leave them.
  const deleted: string[] = [];
  const created: SiteRedirect[] = [];
  const updated: SiteRedirect[] = [];
  for (const [k, rule] of state) {
    const was = initial.get(k) ?? null;
    if (was && (!rule || rule.id !== was.id)) deleted.push(was.id);
    if (rule && (!was || rule.id !== was.id)) created.push(rule);
    else if (rule && was && rule !== was) updated.push(rule);
  }
  if (deleted.length) await tx.siteRedirect.deleteMany({ where: { id: { in: deleted } } });
  for (const { id, kind, siteSectionId, siteSpaceId, pageId, url, captureWildcard, permanent, updatedAt, changedAt } of updated) {
    await tx.siteRedirect.update({ where: { id }, data: { kind, siteSectionId, siteSpaceId, pageId, url, captureWildcard, permanent, updatedAt, changedAt } });
  }
  if (created.length) await tx.siteRedirect.createMany({ data: created });
  return { results };
}
