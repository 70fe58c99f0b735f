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
