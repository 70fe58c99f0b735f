import { describe } from 'vitest';
import { userPolicy } from '../../src/modules/users/user.policy.ts';
import { policyTable } from './table.ts';

describe('user policy (README: only the admin token creates users; creating organizations needs a personal token)', () => {
  policyTable(
    userPolicy,
    {
      'personal token': { instanceAdmin: false, scopeOrganizationId: null },
      'token from SAML sign-in': { instanceAdmin: false, scopeOrganizationId: 'o1' },
      'admin token': { instanceAdmin: true, scopeOrganizationId: null },
    },
    { instance: null },
    [
      ['admin token', 'createUser', 'instance', 'allowed'],
      ['personal token', 'createUser', 'instance', 403],
      ['token from SAML sign-in', 'createUser', 'instance', 403],
      ['personal token', 'createOrganization', 'instance', 'allowed'],
      ['token from SAML sign-in', 'createOrganization', 'instance', 403],
    ],
  );
});
