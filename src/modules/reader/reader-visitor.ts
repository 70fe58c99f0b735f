import type { VisitorInput } from '../published/index.ts';

/**
 * Who is reading, as the browser tells us: the share link's key, the visitor's signed token and the
 * claims they chose, each first in the URL (a share link's `?shareKey=`, the authentication backend's
 * `?jwt_token=`, adaptive content's `?visitor.<claim>=`) and then in a cookie of the site, so the
 * reader lands on the clean URL and keeps its access from page to page. The cookies hold credentials:
 * http-only, `SameSite=Lax`, `Secure` on https, scoped to the site's path. What they are worth is
 * decided by the URL lookup (sites/published-lookup.ts) on every request — a deactivated share link or
 * an expired token closes the door on the next page, whatever the cookie says.
 */

/** The longest value of ours a cookie may carry (a JWT of adaptive claims, a share key): longer is ignored. */
const MAX_COOKIE_VALUE = 6000;
/** How long the browser keeps them; the token inside expires on its own terms. */
const COOKIE_MAX_AGE_SECONDS = 7 * 24 * 3600;

export const SHARE_KEY_PARAM = 'shareKey';
export const VISITOR_TOKEN_PARAM = 'jwt_token';
export const VISITOR_CLAIM_PREFIX = 'visitor.';

/**
 * The cookies' names; each is scoped by its `Path` to the site's base path (the whole host for a site
 * on its own hostname), so two sites under one host never read each other's — and the URL lookup that
 * decides what they are worth runs before the site is known.
 */
const names = { share: 'gb_share', token: 'gb_visitor', claims: 'gb_claims' };

/** The request's cookies (RFC 6265 pairs; values percent-decoded when they can be). */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header || header.length > 16_384) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.length > MAX_COOKIE_VALUE || cookies.has(name)) continue;
    try {
      value = decodeURIComponent(value);
    } catch {}
    cookies.set(name, value);
  }
  return cookies;
}

export interface ReaderVisitor {
  shareKey: string | null;
  visitor: VisitorInput;
  /** Values the URL brought: they go to cookies, and the reader is sent on to the clean URL. */
  fromUrl: { shareKey?: string; token?: string; claims?: Record<string, boolean> };
  /** The visitor brings any credential or claim: their pages are private to them. */
  personal: boolean;
}

/** A claim value from the URL: `true`/`false` (GitBook's unsigned claims are booleans). */
const booleanOf = (value: string) => (value === 'true' ? true : value === 'false' ? false : null);

/** The visitor of a site from the URL and the cookies the browser sent for the site's path. */
export function readerVisitor(url: URL, cookieHeader: string | null): ReaderVisitor {
  const cookies = parseCookies(cookieHeader);
  const fromUrl: ReaderVisitor['fromUrl'] = {};
  const urlShareKey = url.searchParams.get(SHARE_KEY_PARAM);
  if (urlShareKey && urlShareKey.length <= 256) fromUrl.shareKey = urlShareKey;
  const urlToken = url.searchParams.get(VISITOR_TOKEN_PARAM);
  if (urlToken && urlToken.length <= MAX_COOKIE_VALUE) fromUrl.token = urlToken;
  const urlClaims: Record<string, boolean> = {};
  for (const [name, value] of url.searchParams) {
    if (!name.startsWith(VISITOR_CLAIM_PREFIX) || name.length > 100) continue;
    const claim = booleanOf(value);
    if (claim !== null && Object.keys(urlClaims).length < 50) urlClaims[name.slice(VISITOR_CLAIM_PREFIX.length)] = claim;
  }
  if (Object.keys(urlClaims).length) fromUrl.claims = urlClaims;

  let storedClaims: Record<string, boolean> = {};
  try {
    const parsed = JSON.parse(cookies.get(names.claims) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) storedClaims = parsed;
  } catch {}
  const shareKey = fromUrl.shareKey ?? cookies.get(names.share) ?? null;
  const token = fromUrl.token ?? cookies.get(names.token) ?? null;
  const claims = { ...storedClaims, ...urlClaims };
  return {
    shareKey,
    visitor: { jwtToken: token, unsignedClaims: Object.keys(claims).length ? claims : null },
    fromUrl,
    personal: shareKey !== null || token !== null || Object.keys(claims).length > 0,
  };
}

/** The URL without the parameters the visitor module takes out of it. */
export function cleanUrl(url: URL): URL {
  const clean = new URL(url);
  for (const name of [...clean.searchParams.keys()]) {
    if (name === SHARE_KEY_PARAM || name === VISITOR_TOKEN_PARAM || name.startsWith(VISITOR_CLAIM_PREFIX)) clean.searchParams.delete(name);
  }
  return clean;
}

function cookie(name: string, value: string, path: string, secure: boolean, maxAge = COOKIE_MAX_AGE_SECONDS): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path.replace(/\/+$/, '') || '/'}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` values keeping what the URL brought (and clearing what the lookup refused). */
export function visitorCookies(
  visitor: ReaderVisitor,
  options: { path: string; secure: boolean; clearShareKey?: boolean; clearToken?: boolean },
): string[] {
  const out: string[] = [];
  if (visitor.fromUrl.shareKey) out.push(cookie(names.share, visitor.fromUrl.shareKey, options.path, options.secure));
  else if (options.clearShareKey) out.push(cookie(names.share, '', options.path, options.secure, 0));
  if (visitor.fromUrl.token) out.push(cookie(names.token, visitor.fromUrl.token, options.path, options.secure));
  else if (options.clearToken) out.push(cookie(names.token, '', options.path, options.secure, 0));
  if (visitor.fromUrl.claims) {
    const claims = (visitor.visitor.unsignedClaims ?? {}) as Record<string, boolean>;
    out.push(cookie(names.claims, JSON.stringify(claims), options.path, options.secure));
  }
  return out;
}
