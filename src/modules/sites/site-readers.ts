import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Space } from '../../generated/prisma/client.ts';
import type { Context, SiteReader } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import type { Db } from '../../db/client.ts';
import { instanceSecret } from '../../db/instance-secrets.ts';
import { conditionHolds } from './adaptive-content.ts';

/**
 * Readers of published sites. The URL lookup (published-lookup.ts) gives a visitor an `apiToken`: a JWT
 * (HS256, an instance secret) naming one site and what let the visitor in — the share link's key, the
 * digest of the visitor-auth key their JWT verified against, their claims. It opens the reads of that
 * site's published content and nothing else (the edge lets such a token call only SITE_READER_FIELDS,
 * and it sees their answers through the visitor projection: visitor-projection.ts),
 * and every read checks again that the site still shows that space to that visitor: unpublishing,
 * deactivating the share link or regenerating the visitor-auth key closes the token at once.
 */

/** A token lives an hour; tokens are issued for windows of ten minutes, so one visitor's token stays the same for ten (renderers cache reads by token). */
const LIFETIME_SECONDS = 3600;
const WINDOW_SECONDS = 600;
const KIND = 'site-reader';

const keys = new WeakMap<Db, Promise<Uint8Array>>();
function tokenKey(db: Db): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    key = instanceSecret(db, 'site-reader-tokens');
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

/** A short digest of a site's visitor-auth key, for a token to name the key it was let in with. */
export const authKeyTag = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 16);

export async function issueSiteReaderToken(db: Db, reader: SiteReader, now: Date): Promise<string> {
  const windowStart = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  return new SignJWT({
    kind: KIND,
    org: reader.organizationId,
    ...(reader.shareKey ? { share: reader.shareKey } : {}),
    ...(reader.authKeyTag ? { akey: reader.authKeyTag } : {}),
    ...(Object.keys(reader.claims).length ? { claims: reader.claims } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(reader.siteId)
    .setIssuedAt(windowStart)
    .setExpirationTime(windowStart + LIFETIME_SECONDS)
    .sign(await tokenKey(db));
}

/** Whether a bearer token has a JWT's form (three base64url parts): personal access tokens do not. */
export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) && token.length <= 8192;

/** The reader an `apiToken` stands for; null when it does not verify, has expired or is no reader token. */
export async function siteReaderForToken(db: Db, token: string, now: Date): Promise<SiteReader | null> {
  try {
    const { payload } = await jwtVerify(token, await tokenKey(db), { algorithms: ['HS256'], currentDate: now });
    if (payload.kind !== KIND || typeof payload.sub !== 'string' || typeof payload.org !== 'string') return null;
    return {
      siteId: payload.sub,
      organizationId: payload.org,
      shareKey: typeof payload.share === 'string' ? payload.share : null,
      authKeyTag: typeof payload.akey === 'string' ? payload.akey : null,
      claims: payload.claims && typeof payload.claims === 'object' ? (payload.claims as Record<string, unknown>) : {},
    };
  } catch {
    return null;
  }
}

/** What decides whether a site lets a visitor in: its state, and the share link or key they came with. */
export interface SiteGate {
  published: boolean;
  visibility: string;
  publishingAuthKey: string | null;
  /** Whether the visitor's share key is an active link of the site. */
  shareLinkActive: boolean;
}

/** Whether the site is open to this reader now (the rule of the URL lookup, checked again on every read). */
export function siteOpenTo(site: SiteGate, reader: Pick<SiteReader, 'shareKey' | 'authKeyTag'>): boolean {
  if (!site.published) return false;
  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return true;
    case 'share_link':
      return reader.shareKey !== null && site.shareLinkActive;
    case 'visitor_auth':
      return site.publishingAuthKey !== null && reader.authKeyTag === authKeyTag(site.publishingAuthKey);
    default:
      return false;
  }
}

/**
 * The space a site reader may read: one the site publishes (in a site space, and its section, whose
 * conditions hold for the reader's claims), not deleted, while the site is open to them. In one
 * statement; anything else is the 404 of an unknown space.
 */
export async function spaceForSiteReader(ctx: Context, reader: SiteReader, spaceId: string): Promise<Space> {
  const placements = await ctx.db.siteSpace.findMany({
    relationLoadStrategy: 'join',
    where: { siteId: reader.siteId, spaceId, site: { organizationId: reader.organizationId } },
    include: {
      space: true,
      section: { select: { condition: true } },
      site: { include: { shareLinks: { where: { key: reader.shareKey ?? '', active: true }, select: { id: true } } } },
    },
  });
  const open = placements.find(
    (p) =>
      siteOpenTo({ ...p.site, shareLinkActive: p.site.shareLinks.length > 0 }, reader) &&
      conditionHolds(p.condition, reader.claims) &&
      conditionHolds(p.section?.condition, reader.claims) &&
      p.space.deletedAt === null,
  );
  if (!open) throw new NotFoundError(`Space "${spaceId}" not found`);
  return open.space;
}

/**
 * The reader a visitor's operation reads `siteId` as: the apiToken's, or the one a published-content
 * root of the operation let in for that site (`publishedPage` registers it); null when neither.
 */
export function readerOfSite(ctx: Context, siteId: string): SiteReader | null {
  if (ctx.siteReader) return ctx.siteReader.siteId === siteId ? ctx.siteReader : null;
  return ctx.visitors?.get(siteId) ?? null;
}

/**
 * Registers the reader a published-content root let in, for the fields beneath it. One visitor per
 * site and operation: two different ones (another visitor input) would make the claims of one answer
 * for the other, so that is a 400.
 */
export function admitVisitor(ctx: Context, reader: SiteReader): void {
  ctx.visitors ??= new Map();
  const known = ctx.visitors.get(reader.siteId);
  if (known && JSON.stringify(known) !== JSON.stringify(reader)) {
    throw new BadRequestError('Invalid "visitor": one operation reads a site as one visitor');
  }
  ctx.visitors.set(reader.siteId, reader);
}
