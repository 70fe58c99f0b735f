import type { Role, Site } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole, isAdmin, isMember, mayCreateContent, type OrganizationActor } from '../organizations/organization.policy.ts';
import { atLeast, strongest } from '../organizations/roles.ts';

/** The caller relative to an organization's sites: their membership, and whether it enforces SSO. */
export interface SiteActor extends OrganizationActor {
  organizationSso: boolean;
}

/**
 * A site as its rules see it: its creator, `granted` — the strongest level given to the caller on it,
 * to them or to one of their teams (read with the site: site-access.ts) — and, for the access-list
 * actions, `level`: the level given, changed (the stronger of old and new) or removed.
 */
export type SiteRecord = Pick<Site, 'id' | 'createdById'> & { granted?: Role | null; level?: Role | null };

/**
 * The caller's effective level on a site: the strongest of `admin` for the organization's admins and the
 * site's creator, `read` for its other members with a role, and the grants to them or their teams —
 * guests included, for whom grants are the only source. Null: no access.
 */
export function siteLevel(actor: SiteActor, site: SiteRecord): Role | null {
  const { membership, userId } = actor;
  if (!isMember(membership)) return null;
  const own = isAdmin(membership) || (site.createdById !== null && site.createdById === userId) ? 'admin' : hasRole(membership) ? 'read' : null;
  return strongest(own, site.granted);
}

const holds = (actor: SiteActor, site: SiteRecord, level: Role) => atLeast(siteLevel(actor, site), level);

/**
 * Who may do what with sites (docs/api/sites.md, "Who may"), by the caller's effective level on the site
 * (`siteLevel`):
 * - `read` reads it (its sections, groups, site spaces, customization, adaptive schema, published profile);
 * - `edit` changes it: settings, publishing, sections, groups, site spaces, customization, redirects,
 *   share links (and reads them: their keys are credentials), adaptive schema;
 * - `admin` deletes it and changes who can access it (`grant`), never giving more than they hold;
 * - listing who can access it needs `read` and a role in the organization (guests do not see the member
 *   directory), or `admin` on the site;
 * - every member lists the organization's sites — a guest sees only those granted to them
 *   (site.service.ts); members with the `create` role create them.
 * Outsiders get 404, as for an unknown ID; members refused get 403.
 */
export const sitePolicy = definePolicy<SiteActor, SiteRecord>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (site) => `Site "${site.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    list: ({ membership }) => isMember(membership),
    read: (actor, site) => holds(actor, site, 'read'),
    create: ({ membership }) => mayCreateContent(membership),
    edit: (actor, site) => holds(actor, site, 'edit'),
    admin: (actor, site) => holds(actor, site, 'admin'),
    listPermissions: (actor, site) => (hasRole(actor.membership) && holds(actor, site, 'read')) || holds(actor, site, 'admin'),
    grant: (actor, site) => holds(actor, site, 'admin') && (!site.level || holds(actor, site, site.level)),
  },
  refusals: {
    list: 'Guests cannot see the sites of the organization',
    read: 'Reading a site needs a role in the organization or a permission on the site',
    create: 'Creating a site needs the "create" role in the organization',
    edit: 'Changing a site needs the "edit" level on it',
    admin: 'Deleting a site needs the "admin" level on it',
    listPermissions: 'Seeing who can access a site needs a role in the organization and the "read" level on it',
    grant: (site) =>
      site.level
        ? `Changing who can access a site needs the "admin" level on it, and nobody grants more than they hold ("${site.level}")`
        : 'Changing who can access a site needs the "admin" level on it',
  },
});

export type SiteAction = keyof typeof sitePolicy.rules;

/** `Site.permissions` (GitBook's keys): each key is the action it stands for. */
export const SITE_PERMISSIONS = {
  view: 'read',
  access: 'read',
  edit: 'edit',
  create: 'edit',
  admin: 'admin',
  installIntegration: 'admin',
  viewAdaptiveSchema: 'read',
  editAdaptiveSchema: 'edit',
} as const satisfies Record<string, SiteAction>;
