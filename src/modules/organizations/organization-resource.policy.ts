import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole, isAdmin, isMember, type OrganizationActor } from './organization.policy.ts';

/** The caller relative to an organization's own resources: their membership, and whether it enforces SSO. */
export interface OrganizationResourceActor extends OrganizationActor {
  organizationSso: boolean;
}

/**
 * The rule of what belongs to an organization as a whole — its translation settings, its OpenAPI specs:
 * members with a role read them (guests, who see only what was shared with them, 403), its admins change
 * them; outsiders get the 404 of an unknown record; members not signed in through an SSO the organization
 * enforces get 403 (admins excepted). One shape, each resource naming itself.
 */
export function organizationResourcePolicy<Rec>(names: { notFound: (record: Rec) => string; plural: string }) {
  return definePolicy<OrganizationResourceActor, Rec>()({
    visible: ({ membership }) => isMember(membership),
    notFound: names.notFound,
    gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
    rules: {
      read: ({ membership }) => hasRole(membership),
      edit: ({ membership }) => isAdmin(membership),
    },
    refusals: {
      read: `Guests cannot see the organization's ${names.plural}`,
      edit: `Only organization admins can change ${names.plural}`,
    },
  });
}
