import { describe } from 'vitest';
import { organizationCreationPolicy } from '../../src/modules/organizations/organization.policy.ts';
import { userPolicy } from '../../src/modules/users/user.policy.ts';
import { policyTable } from '../support/policy-table.ts';

const tokens = {
  'personal token': { instanceAdmin: false, scopeOrganizationId: null },
  'token from SAML sign-in': { instanceAdmin: false, scopeOrganizationId: 'o1' },
  'admin token': { instanceAdmin: true, scopeOrganizationId: null },
};

describe('user policy (README.md, "First user and token": only the admin token creates users)', () => {
  policyTable(userPolicy, tokens, { instance: null }, [
    ['admin token', 'createUser', 'instance', 'allowed'],
    ['personal token', 'createUser', 'instance', 403],
    ['token from SAML sign-in', 'createUser', 'instance', 403],
  ]);
});

describe('organization creation policy (docs/api/sso.md, "SAML single sign-on": creating organizations needs a personal token)', () => {
  policyTable(organizationCreationPolicy, tokens, { instance: null }, [
    ['personal token', 'create', 'instance', 'allowed'],
    ['token from SAML sign-in', 'create', 'instance', 403],
  ]);
});
