import type { Site } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole, isAdmin, isMember, mayCreateContent, type OrganizationActor } from '../organizations/organization.policy.ts';

/** The caller relative to an organization's sites: their membership, and whether it enforces SSO. */
export interface SiteActor extends OrganizationActor {
  organizationSso: boolean;
}

export type SiteRecord = Pick<Site, 'id' | 'createdById'>;

/**
 * Who may do what with sites (docs/api/sites.md, "Sites"): members with a role list and read them (and their
 * sections, groups, site spaces, adaptive schema and published profile); guests — who see only what was
 * shared with them — get 403, as for the member directory; members with the `create` role create them;
 * a site is managed — changed, published, deleted, its sections, groups, share links and adaptive schema
 * changed, its share links (whose keys are credentials) read — by the organization's admins and by
 * whoever created it. Outsiders get 404, as for an unknown ID.
 */
export const sitePolicy = definePolicy<SiteActor, SiteRecord>()({
  visible: ({ membership }) => isMember(membership),
  notFound: (site) => `Site "${site.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    list: ({ membership }) => hasRole(membership),
    read: ({ membership }) => hasRole(membership),
    create: ({ membership }) => mayCreateContent(membership),
    manage: ({ membership, userId }, site) => isAdmin(membership) || (site.createdById !== null && site.createdById === userId),
  },
  refusals: {
    list: 'Guests cannot see the sites of the organization',
    read: 'Guests cannot see the sites of the organization',
    create: 'Creating a site needs the "create" role in the organization',
    manage: "Only the organization's admins and the site's creator can change it",
  },
});

export type SiteAction = keyof typeof sitePolicy.rules;

/** `Site.permissions` (GitBook's keys): each key is the action it stands for. */
export const SITE_PERMISSIONS = {
  view: 'read',
  access: 'read',
  edit: 'manage',
  create: 'manage',
  admin: 'manage',
  installIntegration: 'manage',
  viewAdaptiveSchema: 'read',
  editAdaptiveSchema: 'manage',
} as const satisfies Record<string, SiteAction>;
