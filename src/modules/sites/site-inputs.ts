import type { SiteType, SiteVisibility } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';
import { checkLength, checkPattern, rejectNull } from '../../core/validate.ts';

/** Site visibilities as the API spells them (GraphQL enum names cannot hold "-": a string scalar). */
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type ApiSiteVisibility = (typeof SITE_VISIBILITIES)[number];
export const toApiSiteVisibility = (v: SiteVisibility): ApiSiteVisibility => v.replace('_', '-') as ApiSiteVisibility;
export const fromApiSiteVisibility = (v: string): SiteVisibility => v.replace('-', '_') as SiteVisibility;

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const toApiSiteType = (t: SiteType) => t.replace('_', '-') as (typeof SITE_TYPES)[number];
export const fromApiSiteType = (t: string): SiteType => t.replace('-', '_') as SiteType;

export const MAX_SITE_TITLE = 128;
/** A basename is the last segment of the site's published URL. */
export const BASENAME = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
/** GitBook's SiteProxyOrigin: a host and at least one path segment, no scheme (`example.com/docs`). */
export const PROXY = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** GitBook's SiteHostname: a lower-case DNS name of at least three labels (`docs.example.com`). */
export const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
/** A section's path in its site. */
export const SECTION_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

export function checkSiteTitle(title: string | null | undefined) {
  rejectNull('title', title);
  checkLength('title', title, 2, MAX_SITE_TITLE);
}

export function checkBasename(basename: string | null | undefined) {
  checkLength('basename', basename, 1, 100);
  checkPattern('basename', basename, BASENAME, 'letters, digits, ".", "_", "~" and "-", starting with a letter or digit');
}

export function checkProxy(proxy: string | null | undefined) {
  checkLength('proxy', proxy, 1, 512);
  checkPattern('proxy', proxy, PROXY, 'a host and a path without scheme, such as "example.com/docs"');
}

/** A site's own hostname: GitBook's pattern, and never one of the server's own hosts (the API's, PUBLISHED_URL's). */
export function checkHostname(hostname: string | null | undefined, ownUrls: string[]) {
  checkLength('hostname', hostname, 1, 512);
  checkPattern('hostname', hostname, HOSTNAME, 'a lower-case DNS name such as "docs.example.com"');
  if (hostname && ownUrls.some((url) => new URL(url).hostname.toLowerCase() === hostname)) {
    throw new BadRequestError(`Invalid "hostname": "${hostname}" is this server's own host`);
  }
}

/** Section titles: 2..128 when changed, at most 64 when given at creation (the description's limits). */
export function checkSectionTitle(title: string | null | undefined, creating = false) {
  if (creating) return checkLength('title', title, 2, 64);
  rejectNull('title', title);
  checkLength('title', title, 2, 128);
}

export function checkSectionPath(path: string | null | undefined) {
  rejectNull('path', path);
  checkLength('path', path, 1, 100);
  checkPattern('path', path, SECTION_PATH, 'letters, digits, ".", "_", "~" and "-", starting with a letter or digit');
}

/** A site space's (variant's) path: GitBook's SiteSpacePath (1..100), one URL segment as a section's. */
export function checkSiteSpacePath(path: string | null | undefined) {
  rejectNull('path', path);
  checkLength('path', path, 1, 100);
  checkPattern('path', path, SECTION_PATH, 'letters, digits, ".", "_", "~" and "-", starting with a letter or digit');
}

export function checkIcon(icon: string | null | undefined) {
  checkLength('icon', icon, 1, 50);
}

export function checkGroupTitle(title: string | null | undefined) {
  rejectNull('title', title);
  checkLength('title', title, 1, 100);
}

export function checkShareLinkName(name: string | null | undefined) {
  rejectNull('name', name);
  checkLength('name', name, 0, 50);
}

/** IDs given in a list (`spaces`, `sections`): each once. */
export function checkDistinct(field: string, ids: readonly string[]) {
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new BadRequestError(`Invalid "${field}": "${repeated}" is listed twice`);
}
