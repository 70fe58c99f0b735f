import type { User } from '../generated/prisma/client.ts';

/** Who is calling: the token's user, and the organization the token is limited to, if any. */
export interface Viewer {
  user: User;
  tokenId: string;
  /**
   * The one organization a scoped token may act in (tokens issued by an organization's SAML sign-in),
   * or null for a personal token. Outside it the caller is an outsider: see `viewerMayActIn`.
   */
  scopeOrganizationId: string | null;
}

/**
 * Whether the caller's token may act in this organization at all. An organization's identity provider
 * vouches for a person only inside that organization, so a token from its SAML sign-in is worth
 * nothing anywhere else: there the caller is treated as a non-member.
 */
export function viewerMayActIn(viewer: Viewer | null, organizationId: string): boolean {
  return viewer !== null && (viewer.scopeOrganizationId === null || viewer.scopeOrganizationId === organizationId);
}

/**
 * A reader of one published site, holding the `apiToken` the URL lookup gave them (never a user): they
 * may read what that site publishes to them and nothing else (src/modules/sites/site-readers.ts).
 */
export interface SiteReader {
  siteId: string;
  organizationId: string;
  /** The share link's key a share-link site was opened with. */
  shareKey: string | null;
  /** The visitor's claims (adaptive content): signed ones, and `unsigned` ones the site's schema declares. */
  claims: Record<string, unknown>;
  /** A digest of the site's visitor-auth key the visitor's JWT verified against (a new key voids it). */
  authKeyTag: string | null;
}
