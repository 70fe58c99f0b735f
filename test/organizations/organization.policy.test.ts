import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../../src/core/authorization.ts';
import { ORGANIZATION_PERMISSIONS, organizationPolicy } from '../../src/modules/organizations/organization.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

const actors = {
  admin: member('admin'),
  creator: member('create'),
  editor: member('edit'),
  reader: member('read'),
  guest: member(null),
  'disabled admin': member('admin', { disabled: true }),
  outsider,
  'SSO member': member('edit', { sso: true }),
};
const records = {
  org: { id: 'o1', sso: false },
  'SSO-only org': { id: 'o2', sso: true },
};

describe('organization policy (docs/api/organizations.md, "Rules": any member reads it; members with a role read its directory; admin changes it)', () => {
  policyTable(organizationPolicy, actors, records, [
    // Any member (guests included) reads the organization; outsiders get 404 as for an unknown ID.
    ['admin', 'read', 'org', 'allowed'],
    ['reader', 'read', 'org', 'allowed'],
    ['guest', 'read', 'org', 'allowed'],
    ['outsider', 'read', 'org', 404],
    ['disabled admin', 'read', 'org', 404],
    ['guest', 'seeBilling', 'org', 'allowed'],
    ['outsider', 'seeBilling', 'org', 404],
    // Admins change the organization.
    ['admin', 'update', 'org', 'allowed'],
    ['creator', 'update', 'org', 403],
    ['guest', 'update', 'org', 403],
    ['outsider', 'update', 'org', 404],
    // The member directory, teams and collections are for members with a role; guests get 403.
    ['reader', 'listMembers', 'org', 'allowed'],
    ['guest', 'listMembers', 'org', 403],
    ['reader', 'listTeams', 'org', 'allowed'],
    ['guest', 'listTeams', 'org', 403],
    ['reader', 'listCollections', 'org', 'allowed'],
    ['guest', 'listCollections', 'org', 403],
    // Creating content at the top level, and transferring content out or in, need the "create" role.
    ['admin', 'createContent', 'org', 'allowed'],
    ['creator', 'createContent', 'org', 'allowed'],
    ['editor', 'createContent', 'org', 403],
    ['guest', 'createContent', 'org', 403],
    ['creator', 'transferOut', 'org', 'allowed'],
    ['editor', 'transferOut', 'org', 403],
    ['creator', 'transferIn', 'org', 'allowed'],
    ['reader', 'transferIn', 'org', 403],
    // An organization that enforces SSO: members who are not SSO members get 403 — admins excepted.
    ['editor', 'read', 'SSO-only org', 403],
    ['guest', 'read', 'SSO-only org', 403],
    ['SSO member', 'read', 'SSO-only org', 'allowed'],
    ['admin', 'read', 'SSO-only org', 'allowed'],
    ['admin', 'update', 'SSO-only org', 'allowed'],
    ['outsider', 'read', 'SSO-only org', 404],
    // They are members still: billing is shown to them.
    ['editor', 'seeBilling', 'SSO-only org', 'allowed'],
  ]);

  it('the permissions object is the policy, key by key', () => {
    expect(permissionsOf(organizationPolicy, actors.admin, records.org, ORGANIZATION_PERMISSIONS)).toEqual({ admin: true, createContent: true });
    expect(permissionsOf(organizationPolicy, actors.creator, records.org, ORGANIZATION_PERMISSIONS)).toEqual({ admin: false, createContent: true });
    expect(permissionsOf(organizationPolicy, actors.guest, records.org, ORGANIZATION_PERMISSIONS)).toEqual({ admin: false, createContent: false });
    expect(permissionsOf(organizationPolicy, actors.outsider, records.org, ORGANIZATION_PERMISSIONS)).toEqual({ admin: false, createContent: false });
  });
});
