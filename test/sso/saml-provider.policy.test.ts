import { describe } from 'vitest';
import { samlProviderPolicy, samlSignInPolicy } from '../../src/modules/sso/saml-provider.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

describe('SAML provider policy (docs/api/sso.md, "SAML single sign-on": providers are for admins; other members 403, outsiders 404)', () => {
  policyTable(
    samlProviderPolicy,
    { admin: member('admin'), creator: member('create'), guest: member(null), 'disabled admin': member('admin', { disabled: true }), outsider },
    { provider: { organizationId: 'o1' } },
    [
      ['admin', 'read', 'provider', 'allowed'],
      ['admin', 'create', 'provider', 'allowed'],
      ['admin', 'update', 'provider', 'allowed'],
      ['admin', 'delete', 'provider', 'allowed'],
      ['creator', 'read', 'provider', 403],
      ['creator', 'create', 'provider', 403],
      ['guest', 'update', 'provider', 403],
      ['guest', 'delete', 'provider', 403],
      ['outsider', 'read', 'provider', 404],
      ['disabled admin', 'read', 'provider', 404],
    ],
  );
});

describe('SAML sign-in policy (docs/api/sso.md, "SAML single sign-on": who a verified assertion may sign in)', () => {
  policyTable(
    samlSignInPolicy,
    {
      'a new person': { linkable: true, membership: null },
      'a pending (invited) user': { linkable: true, membership: null },
      'an enabled member': { linkable: true, membership: { disabled: false } },
      'a disabled member': { linkable: true, membership: { disabled: true } },
      'an account of other organizations only': { linkable: false, membership: null },
    },
    { provider: { organizationId: 'o1' } },
    [
      ['a new person', 'signIn', 'provider', 'allowed'],
      ['a pending (invited) user', 'signIn', 'provider', 'allowed'],
      ['an enabled member', 'signIn', 'provider', 'allowed'],
      ['a disabled member', 'signIn', 'provider', 403],
      ['an account of other organizations only', 'signIn', 'provider', 403],
    ],
  );
});
