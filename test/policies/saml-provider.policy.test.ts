import { describe } from 'vitest';
import { samlProviderPolicy } from '../../src/modules/sso/saml-provider.policy.ts';
import { member, outsider, policyTable } from './table.ts';

describe('SAML provider policy (README: providers are for admins; other members 403, outsiders 404)', () => {
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
