import type { Config } from '../../config.ts';

/**
 * Where a site and its parts are: in the API, in the application, and once published for its audience
 * (`PUBLISHED_URL`, default `<PUBLIC_URL>/s`, then the organization and the site's basename, or its ID).
 */
type SiteRef = { id: string; organizationId: string; basename: string | null; published: boolean; hostname?: string | null };

export const siteApiUrl = (config: Config, site: Pick<SiteRef, 'id' | 'organizationId'>) => `${config.apiUrl}/orgs/${site.organizationId}/sites/${site.id}`;
export const siteAppUrl = (config: Config, site: Pick<SiteRef, 'id' | 'organizationId'>) => `${config.appUrl}/o/${site.organizationId}/sites/${site.id}`;

/**
 * The site's address for its audience, published or not (share links carry it before publishing too):
 * its own hostname when it has one (with PUBLISHED_URL's scheme), else PUBLISHED_URL, its organization
 * and its basename (or ID).
 */
export function sitePublicationUrl(config: Config, site: SiteRef): string {
  if (site.hostname) return `${new URL(config.publishedUrl).protocol}//${site.hostname}`;
  return `${config.publishedUrl}/${site.organizationId}/${encodeURIComponent(site.basename ?? site.id)}`;
}

/** Only defined while the site is published (GitBook's rule). */
export const sitePublishedUrl = (config: Config, site: SiteRef) => (site.published ? sitePublicationUrl(config, site) : undefined);

type SectionRef = { path: string; isDefault: boolean };
type SiteSpaceRef = { path: string; isDefault: boolean };

/**
 * Where a variant lives below its site's address (GitBook's rule): nothing for the default variant of
 * the default section; a section's path for its default variant; the section's path and the variant's
 * for any other variant — the default section's too (`guides/fr/`). Each segment ends with `/`.
 * (The URL lookup also reads a variant of the default section without the section's path: `fr/`.)
 */
export function variantPath(section: SectionRef | null, siteSpace: SiteSpaceRef): string {
  const sectionPart = section && (!section.isDefault || !siteSpace.isDefault) ? `${encodeURIComponent(section.path)}/` : '';
  return siteSpace.isDefault ? sectionPart : `${sectionPart}${encodeURIComponent(siteSpace.path)}/`;
}

/** A section's published address: the site's for the default section, else the site's and its path. */
export function sectionPublishedUrl(config: Config, site: SiteRef, section: SectionRef) {
  const root = sitePublishedUrl(config, site);
  if (!root) return undefined;
  return section.isDefault ? root : `${root}/${encodeURIComponent(section.path)}`;
}

/** A site space's (variant's) published address: the site's and the variant's path (`variantPath`). */
export function siteSpacePublishedUrl(config: Config, site: SiteRef, section: SectionRef | null, siteSpace: SiteSpaceRef) {
  const root = sitePublishedUrl(config, site);
  if (!root) return undefined;
  return `${root}/${variantPath(section, siteSpace)}`.replace(/\/$/, '');
}
