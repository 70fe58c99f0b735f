import { jwtVerify } from 'jose';
import type { Prisma, Site } from '../../generated/prisma/client.ts';
import type { Services, SiteReader } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { authKeyTag, conditionHolds, issueSiteReaderToken, siteOpenTo, variantPath } from '../sites/index.ts';
import { formerPathsQuery, publishedRedirect, siteRedirectsQuery } from './published-redirects.ts';

/**
 * "What does this URL show?" (GitBook's resolvePublishedContentByUrl): a published URL — a site's own
 * `hostname`, or PUBLISHED_URL/<organization>/<basename or site ID> — then a section's path, a site
 * space's (variant's) path and a page path, resolved to the site, section, site space, space and its
 * published revision, with an `apiToken` for reading them (site-readers.ts). It takes no access token:
 * it shows a visitor only what the site shows them — a published site, public or unlisted as it is, a
 * share-link site with an active link's key (`?shareKey=` in the URL), a visitor-auth site with a JWT
 * its backend signed with the site's key; sections and site spaces whose conditions hold for the
 * visitor's claims. Anything else is the same 404 as an unknown URL — or, for a visitor-auth site
 * without a valid token, where to authenticate. One statement reads the site with its sections, site
 * spaces and the share link.
 */

export const MAX_URL = 2048;
/** Claims a visitor may bring, serialized: they ride in every apiToken. */
const MAX_CLAIMS_BYTES = 4096;

export interface VisitorInput {
  jwtToken?: string | null;
  unsignedClaims?: unknown;
}

export type PublishedLookup =
  | {
      site: string;
      siteSection?: string;
      siteSpace: string;
      space: string;
      revision: string;
      pathname: string;
      basePath: string;
      siteBasePath: string;
      apiToken: string;
      organization: string;
      shareKey?: string;
      complete: boolean;
      canonicalUrl: string;
    }
  | { target: 'external'; site: string; redirect: string }
  | { target: 'content'; redirect: string };

/** The site with its sections and site spaces, and the redirects the URL's path (raw, and decoded) may match. */
const siteQuery = (rawSegments: string[], segments: string[]) =>
  ({
    include: {
      sections: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
      // Their titles and icons: what a reader's navigation draws of the groups (and so part of what it shows).
      sectionGroups: { select: { id: true, title: true, icon: true } },
      siteSpaces: {
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        include: { space: { select: { id: true, title: true, emoji: true, revisionId: true, deletedAt: true, pathRedirects: formerPathsQuery(segments) } } },
      },
      redirects: siteRedirectsQuery(rawSegments),
    },
  }) satisfies Prisma.SiteDefaultArgs;

function parseUrl(text: string): URL {
  checkLength('url', text, 1, MAX_URL);
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {}
  throw new BadRequestError('Invalid "url": an absolute http or https URL is expected');
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/**
 * Decoded path segments; a malformed escape is a 400 naming the URL, and so is a NUL (`%00`): no site,
 * section or page path holds one, and PostgreSQL text cannot either.
 */
function decoded(segments: string[]): string[] {
  let decodedSegments: string[];
  try {
    decodedSegments = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw new BadRequestError('Invalid "url": a path segment is not valid percent-encoding');
  }
  if (decodedSegments.some((segment) => segment.includes('\u0000'))) throw new BadRequestError('Invalid "url": a path segment holds a NUL character');
  return decodedSegments;
}

/** The visitor's claims: signed ones from their JWT (verified with the site's key), unsigned ones the site's schema declares, under `unsigned`. */
async function visitorClaims(services: Services, site: { publishingAuthKey: string | null; adaptiveSchema: unknown }, visitor: VisitorInput | null | undefined) {
  let signed: Record<string, unknown> | null = null;
  if (visitor?.jwtToken && site.publishingAuthKey) {
    checkLength('visitor.jwtToken', visitor.jwtToken, 1, 8192);
    try {
      const { payload } = await jwtVerify(visitor.jwtToken, new TextEncoder().encode(site.publishingAuthKey), { algorithms: ['HS256'], currentDate: services.clock.now() });
      const { iat: _iat, exp: _exp, nbf: _nbf, iss: _iss, aud: _aud, jti: _jti, sub: _sub, ...claims } = payload;
      signed = claims;
    } catch {
      signed = null;
    }
  }
  const declared = Object.keys(((site.adaptiveSchema as { properties?: object } | null)?.properties ?? {}) as object);
  const unsigned: Record<string, boolean> = {};
  if (visitor?.unsignedClaims && typeof visitor.unsignedClaims === 'object' && !Array.isArray(visitor.unsignedClaims)) {
    for (const name of declared) {
      const value = (visitor.unsignedClaims as Record<string, unknown>)[name];
      if (typeof value === 'boolean') unsigned[name] = value;
    }
  }
  const claims: Record<string, unknown> = { ...(signed ?? {}), ...(Object.keys(unsigned).length ? { unsigned } : {}) };
  if (JSON.stringify(claims).length > MAX_CLAIMS_BYTES) throw new BadRequestError(`Invalid "visitor": its claims exceed ${MAX_CLAIMS_BYTES} bytes`);
  return { claims, verified: signed !== null };
}

export async function resolvePublishedUrl(services: Services, input: { url: string; visitor?: VisitorInput | null; redirectOnError?: boolean | null }): Promise<PublishedLookup> {
  return (await lookupPublishedUrl(services, input)).answer;
}

/** What the lookup found: its answer, and for content the reader it let in and the site it read. */
export interface LookupResult {
  answer: PublishedLookup;
  reader?: SiteReader;
  site?: Site;
  /** The site space's overrides of the site's customization (siteSpaceCustomizationOf). */
  siteSpaceCustomization?: unknown;
  /** For content: what this visitor sees of the site's navigation (the reader draws it). */
  navigation?: VisitorNavigation;
}

type LoadedSite = Prisma.SiteGetPayload<ReturnType<typeof siteQuery>>;

/** The sections and site spaces a visitor sees (conditions held, spaces published), and which the URL named. */
export interface VisitorNavigation {
  sections: LoadedSite['sections'];
  sectionGroups: LoadedSite['sectionGroups'];
  /** Every shown site space, of every shown section, in the site's order. */
  siteSpaces: LoadedSite['siteSpaces'];
  section: LoadedSite['sections'][number] | null;
  siteSpace: LoadedSite['siteSpaces'][number];
  claims: Record<string, unknown>;
}

/** `issueToken: false`: the caller reads as the reader itself (our own renderer) and needs no apiToken. */
export async function lookupPublishedUrl(
  services: Services,
  input: { url: string; visitor?: VisitorInput | null; redirectOnError?: boolean | null },
  options: { issueToken?: boolean } = {},
): Promise<LookupResult> {
  const url = parseUrl(input.url);
  const notFound = () => new NotFoundError(`No published content at "${url.origin}${url.pathname}"`);
  const published = new URL(services.config.publishedUrl);
  const publishedBase = published.pathname.replace(/\/+$/, '');
  const underPublishedPath = url.pathname === publishedBase || url.pathname.startsWith(`${publishedBase}/`);
  // Path-addressed sites answer on PUBLISHED_URL's host and on any other that is no site's own hostname
  // (a LAN address, 127.0.0.1 for localhost): people reach a server by the address they have. Links and
  // canonical URLs still use PUBLISHED_URL, so every host gets the same page.
  const underPublished =
    underPublishedPath &&
    (url.host === published.host || (publishedBase !== '' && (await services.db.site.count({ where: { hostname: url.hostname.toLowerCase() } })) === 0));

  // The site: by its own hostname, or by organization and basename (or ID) under PUBLISHED_URL.
  let site;
  let siteBasePath: string;
  let rest: string[];
  // The path after the site's, as written in the URL: what redirect sources are matched against.
  let rawRest: string[];
  if (underPublished) {
    const raw = segmentsOf(url.pathname.slice(publishedBase.length));
    const [organizationId, name, ...after] = decoded(raw);
    if (!organizationId || !name) throw notFound();
    rawRest = raw.slice(2);
    site = await services.db.site.findFirst({
      relationLoadStrategy: 'join',
      where: { organizationId, OR: [{ basename: name }, { id: name }] },
      orderBy: { basename: { sort: 'asc', nulls: 'last' } },
      ...siteQuery(rawRest, after),
    });
    siteBasePath = `${publishedBase}/${encodeURIComponent(organizationId)}/${encodeURIComponent(name)}/`;
    rest = after;
  } else {
    rawRest = segmentsOf(url.pathname);
    rest = decoded(rawRest);
    site = await services.db.site.findUnique({ relationLoadStrategy: 'join', where: { hostname: url.hostname.toLowerCase() }, ...siteQuery(rawRest, rest) });
    siteBasePath = '/';
  }
  if (!site?.published) throw notFound();

  // Who the visitor is: the share link's key, their verified JWT, their claims.
  const shareKey = url.searchParams.get('shareKey');
  if (shareKey !== null) {
    checkLength('shareKey', shareKey, 1, 256);
    if (shareKey.includes('\u0000')) throw new BadRequestError('Invalid "shareKey": it holds a NUL character');
  }
  const shareLinkActive =
    site.visibility === 'share_link' && shareKey !== null
      ? (await services.db.shareLink.count({ where: { siteId: site.id, key: shareKey, active: true } })) > 0
      : false;
  const { claims, verified } = await visitorClaims(services, site, input.visitor);
  const reader: SiteReader = {
    siteId: site.id,
    organizationId: site.organizationId,
    shareKey: site.visibility === 'share_link' ? shareKey : null,
    authKeyTag: site.visibility === 'visitor_auth' && verified && site.publishingAuthKey ? authKeyTag(site.publishingAuthKey) : null,
    claims,
  };
  if (!siteOpenTo({ ...site, shareLinkActive }, reader)) {
    if (site.visibility === 'visitor_auth' && site.publishingAuthFallbackUrl) {
      const redirect = new URL(site.publishingAuthFallbackUrl);
      redirect.searchParams.set('location', url.pathname);
      return { answer: { target: 'external', site: site.id, redirect: redirect.toString() } };
    }
    throw notFound();
  }

  // The section, then the site space (variant): by their paths, else the default, among those shown.
  // A section's path selects it, the default section's too (GitBook puts the default section's other
  // variants at `<section>/<variant>`); a variant of the default section is also read without it.
  const sections = site.sections.filter((section) => conditionHolds(section.condition, claims));
  let section = null as (typeof sections)[number] | null;
  let sectionNamed = false;
  if (site.sections.length > 0) {
    section = sections.find((s) => s.path === rest[0]) ?? null;
    sectionNamed = section !== null;
    if (sectionNamed) rest.shift();
    else section = sections.find((s) => s.isDefault) ?? sections[0] ?? null;
    if (!section) throw notFound();
  }
  const shownSections = new Set(sections.map((s) => s.id));
  const shownSiteSpaces = site.siteSpaces.filter(
    (s) => (s.sectionId === null ? site.sections.length === 0 : shownSections.has(s.sectionId)) && s.space.deletedAt === null && s.space.revisionId !== null && conditionHolds(s.condition, claims),
  );
  const variants = shownSiteSpaces.filter((s) => (section ? s.sectionId === section.id : s.sectionId === null));
  let siteSpace = variants.find((s) => !s.isDefault && s.path === rest[0]) ?? null;
  const variantNamed = siteSpace !== null;
  if (variantNamed) rest.shift();
  else siteSpace = variants.find((s) => s.isDefault) ?? variants[0] ?? null;
  if (!siteSpace) throw notFound();

  // Where the variant lives (GitBook's rule, whichever form the URL took), and what is left: the page path.
  const basePath = `${siteBasePath}${variantPath(section, siteSpace)}`;
  const pathname = rest.join('/');
  // GitBook's `complete`: no further site path segment can follow — a page path was given, or neither
  // another section nor another variant could be named next. Renderers look up every prefix of a path
  // at once and keep the first complete answer.
  const complete = pathname !== '' || ((sectionNamed || sections.length < 2) && (variantNamed || variants.length < 2));
  // A path that is no page may be redirected: by the site's rules, or to where its page moved.
  const redirect = await publishedRedirect(services, {
    site,
    siteSpace,
    source: `/${rawRest.join('/')}`,
    pathname,
    siteUrl: `${url.origin}${siteBasePath}`,
    variantUrl: `${url.origin}${basePath}`,
    query: reader.shareKey ? `?shareKey=${encodeURIComponent(reader.shareKey)}` : '',
  });
  if (redirect) return { answer: redirect };
  // A path-addressed site's canonical address is under PUBLISHED_URL, whichever host it was read on.
  const canonical = new URL(`${basePath}${rest.map(encodeURIComponent).join('/')}`, underPublished ? published.origin : url.origin);
  const { sections: _sections, sectionGroups: _groups, siteSpaces: _siteSpaces, redirects: _redirects, ...siteRow } = site;
  const answer: PublishedLookup = {
    site: site.id,
    ...(section ? { siteSection: section.id } : {}),
    siteSpace: siteSpace.id,
    space: siteSpace.space.id,
    revision: siteSpace.space.revisionId!,
    pathname,
    basePath,
    siteBasePath,
    apiToken: options.issueToken === false ? '' : await issueSiteReaderToken(services.db, reader, services.clock.now()),
    organization: site.organizationId,
    ...(reader.shareKey ? { shareKey: reader.shareKey } : {}),
    complete,
    canonicalUrl: canonical.toString(),
  };
  return {
    answer,
    reader,
    site: siteRow,
    siteSpaceCustomization: siteSpace.customization,
    navigation: { sections, sectionGroups: site.sectionGroups, siteSpaces: shownSiteSpaces, section, siteSpace, claims },
  };
}
