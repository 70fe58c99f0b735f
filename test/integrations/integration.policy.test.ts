import { describe } from 'vitest';
import { installationTargetPolicy, integrationPolicy } from '../../src/modules/integrations/integration.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

describe("integration policy (docs/api/specs-and-integrations.md, \"Integrations\": a private one is its organization's; its admins manage it)", () => {
  policyTable(
    integrationPolicy,
    { admin: member('admin'), reader: member('read'), guest: member(null), outsider },
    { 'a private one': { name: 'p', visibility: 'private' }, 'a public one': { name: 'q', visibility: 'public' }, 'an unlisted one': { name: 'u', visibility: 'unlisted' } },
    [
      ['admin', 'manage', 'a private one', 'allowed'],
      ['reader', 'read', 'a private one', 'allowed'],
      ['reader', 'manage', 'a private one', 403],
      ['guest', 'read', 'a private one', 403],
      ['guest', 'read', 'a public one', 'allowed'],
      ['outsider', 'read', 'a private one', 404],
      ['outsider', 'read', 'a public one', 'allowed'],
      ['outsider', 'read', 'an unlisted one', 'allowed'],
      ['outsider', 'manage', 'a public one', 403],
    ],
  );
});

describe('where an integration installs: a private one only in the organization that owns it', () => {
  policyTable(
    installationTargetPolicy,
    { 'its own organization': { organizationId: 'owner' }, 'another organization': { organizationId: 'elsewhere' } },
    {
      'a private one': { name: 'p', visibility: 'private', organizationId: 'owner' },
      'a public one': { name: 'q', visibility: 'public', organizationId: 'owner' },
      'an unlisted one': { name: 'u', visibility: 'unlisted', organizationId: 'owner' },
    },
    [
      ['its own organization', 'install', 'a private one', 'allowed'],
      ['another organization', 'install', 'a private one', 404],
      ['another organization', 'install', 'a public one', 'allowed'],
      ['another organization', 'install', 'an unlisted one', 'allowed'],
    ],
  );
});
