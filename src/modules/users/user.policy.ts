import { definePolicy } from '../../core/authorization.ts';
import type { TokenActor } from '../organizations/organization.policy.ts';

/**
 * Who may do what at the instance level (README.md, "First user and token"): only the instance
 * administrator token creates users. (Creating an organization, which needs a personal token, is
 * `organizationCreationPolicy`.)
 */
export const userPolicy = definePolicy<TokenActor, null>()({
  visible: () => true,
  notFound: () => 'Not found',
  rules: {
    createUser: (actor) => actor.instanceAdmin,
  },
  refusals: {
    createUser: 'Only the instance administrator token can create users',
  },
});
