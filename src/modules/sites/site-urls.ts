import type { Config } from '../../config.ts';

/**
 * Where a site and its parts are: in the API, in the application, and once published for its audience
 * (`PUBLISHED_URL`, default `<PUBLIC_URL>/s`, then the organization and the site's basename, or its ID).
 */
type SiteRef = { id: string; organizationId: string; basename: string | null; published: boolean };

export const siteApiUrl = (config: Config, site: Pick<SiteRef, 'id' | 'organizationId'>) => `${config.apiUrl}/orgs/${site.organizationId}/sites/${site.id}`;
export const siteAppUrl = (config: Config, site: Pick<SiteRef, 'id' | 'organizationId'>) => `${config.appUrl}/o/${site.organizationId}/sites/${site.id}`;

/** The site's address for its audience, published or not (share links carry it before publishing too). */
export const sitePublicationUrl = (config: Config, site: SiteRef) => `${config.publishedUrl}/${site.organizationId}/${encodeURIComponent(site.basename ?? site.id)}`;

/** Only defined while the site is published (GitBook's rule). */
export const sitePublishedUrl = (config: Config, site: SiteRef) => (site.published ? sitePublicationUrl(config, site) : undefined);

/** A section's published address: the site's for the default section, else the site's and its path. */
export function sectionPublishedUrl(config: Config, site: SiteRef, section: { path: string; isDefault: boolean }) {
  const root = sitePublishedUrl(config, site);
  if (!root) return undefined;
  return section.isDefault ? root : `${root}/${encodeURIComponent(section.path)}`;
}

/** A site space's (variant's) published address: its section's, and its path unless it is the section's default. */
export function siteSpacePublishedUrl(config: Config, site: SiteRef, section: { path: string; isDefault: boolean }, siteSpace: { path: string; isDefault: boolean }) {
  const root = sectionPublishedUrl(config, site, section);
  if (!root) return undefined;
  return siteSpace.isDefault ? root : `${root}/${encodeURIComponent(siteSpace.path)}`;
}
