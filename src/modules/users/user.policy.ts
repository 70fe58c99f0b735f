import { definePolicy } from '../../core/authorization.ts';

/** The caller as instance-level rules see them: which kind of token they hold. */
export interface TokenActor {
  /** The ADMIN_TOKEN bearer: instance administration, nothing else. */
  instanceAdmin: boolean;
  /** The organization a token from SAML sign-in is scoped to; null for a personal token. */
  scopeOrganizationId: string | null;
}

/**
 * Who may do what at the instance level (README, "First user and token" and "SAML single sign-on").
 * Only the instance administrator token creates users. Creating an organization needs a personal
 * token: a token from an organization's SAML sign-in is worth nothing outside that organization.
 */
export const userPolicy = definePolicy<TokenActor, null>()({
  visible: () => true,
  notFound: () => 'Not found',
  rules: {
    createUser: (actor) => actor.instanceAdmin,
    createOrganization: (actor) => !actor.instanceAdmin && actor.scopeOrganizationId === null,
  },
  refusals: {
    createUser: 'Only the instance administrator token can create users',
    createOrganization:
      'A token from SSO sign-in can only be used in its own organization; creating organizations needs a personal token',
  },
});
