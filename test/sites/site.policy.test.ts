import { describe, expect, it } from 'vitest';
import { siteLevel, sitePolicy, type SiteActor, type SiteRecord } from '../../src/modules/sites/site.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

const site = (role: Parameters<typeof member>[0], extra: Parameters<typeof member>[1] = {}, organizationSso = false): SiteActor => ({
  ...member(role, extra),
  organizationSso,
});

const actors = {
  admin: site('admin'),
  creator: site('create', { userId: 'maker' }),
  'other creator': site('create'),
  editor: site('edit'),
  reader: site('read'),
  guest: site(null),
  'disabled admin': site('admin', { disabled: true }),
  'disabled guest': site(null, { disabled: true }),
  'non-SSO reader of an SSO organization': site('read', {}, true),
  outsider: { ...outsider, organizationSso: false },
};

const records: Record<string, SiteRecord> = {
  'their site': { id: 's1', createdById: 'maker' },
  'a site': { id: 's2', createdById: 'someone' },
  'an orphan site': { id: 's3', createdById: null },
  'a site granted read': { id: 's4', createdById: 'someone', granted: 'read' },
  'a site granted edit': { id: 's5', createdById: 'someone', granted: 'edit' },
  'a site granted admin': { id: 's6', createdById: 'someone', granted: 'admin' },
  'a site granted edit, giving admin': { id: 's5', createdById: 'someone', granted: 'edit', level: 'admin' },
  'a site granted admin, giving admin': { id: 's6', createdById: 'someone', granted: 'admin', level: 'admin' },
  'a site, giving read': { id: 's2', createdById: 'someone', level: 'read' },
};

describe('site level: the strongest of admin (organization admins, the creator), read (members with a role) and grants', () => {
  it.each([
    ['admin', 'a site', 'admin'],
    ['creator', 'their site', 'admin'],
    ['creator', 'a site', 'read'],
    ['editor', 'a site', 'read'],
    ['editor', 'a site granted edit', 'edit'],
    ['reader', 'a site granted admin', 'admin'],
    ['admin', 'a site granted read', 'admin'],
    ['guest', 'a site', null],
    ['guest', 'a site granted read', 'read'],
    ['guest', 'a site granted edit', 'edit'],
    ['disabled guest', 'a site granted edit', null],
    ['outsider', 'a site granted admin', null],
  ] as const)('%s on %s → %s', (who, what, level) => {
    expect(siteLevel(actors[who], records[what])).toBe(level);
  });
});

describe('site policy (docs/api/sites.md, "Who may": read to read, edit to change, admin to delete and grant; guests only through grants)', () => {
  policyTable(sitePolicy, actors, records, [
    // Reading: members with a role, and anyone granted a level.
    ['reader', 'read', 'a site', 'allowed'],
    ['guest', 'read', 'a site', 403],
    ['guest', 'read', 'a site granted read', 'allowed'],
    ['disabled guest', 'read', 'a site granted read', 404],
    ['non-SSO reader of an SSO organization', 'read', 'a site', 403],
    ['non-SSO reader of an SSO organization', 'read', 'a site granted admin', 403],
    ['disabled admin', 'read', 'a site', 404],
    ['outsider', 'read', 'a site', 404],
    ['outsider', 'read', 'a site granted admin', 404],
    // Listing: every member (guests see only the sites granted to them: the service's filter).
    ['reader', 'list', 'a site', 'allowed'],
    ['guest', 'list', 'a site', 'allowed'],
    ['outsider', 'list', 'a site', 404],
    // Creating: the create role.
    ['creator', 'create', 'a site', 'allowed'],
    ['editor', 'create', 'a site', 403],
    ['guest', 'create', 'a site', 403],
    ['guest', 'create', 'a site granted admin', 403],
    // Changing: edit on the site — admins, the creator, grants of edit or more; an organization role alone gives read.
    ['admin', 'edit', 'a site', 'allowed'],
    ['admin', 'edit', 'an orphan site', 'allowed'],
    ['creator', 'edit', 'their site', 'allowed'],
    ['creator', 'edit', 'a site', 403],
    ['other creator', 'edit', 'an orphan site', 403],
    ['editor', 'edit', 'a site', 403],
    ['reader', 'edit', 'a site', 403],
    ['reader', 'edit', 'a site granted read', 403],
    ['reader', 'edit', 'a site granted edit', 'allowed'],
    ['guest', 'edit', 'a site granted edit', 'allowed'],
    ['guest', 'edit', 'a site granted read', 403],
    ['outsider', 'edit', 'a site', 404],
    // Deleting: admin on the site.
    ['admin', 'admin', 'a site', 'allowed'],
    ['creator', 'admin', 'their site', 'allowed'],
    ['reader', 'admin', 'a site granted edit', 403],
    ['guest', 'admin', 'a site granted admin', 'allowed'],
    // Who can access it: listing needs read and a role (or admin on the site); granting needs admin, up to the level held.
    ['reader', 'listPermissions', 'a site', 'allowed'],
    ['guest', 'listPermissions', 'a site granted edit', 403],
    ['guest', 'listPermissions', 'a site granted admin', 'allowed'],
    ['admin', 'grant', 'a site, giving read', 'allowed'],
    ['creator', 'grant', 'their site', 'allowed'],
    ['reader', 'grant', 'a site, giving read', 403],
    ['reader', 'grant', 'a site granted edit, giving admin', 403],
    ['guest', 'grant', 'a site granted admin, giving admin', 'allowed'],
    ['outsider', 'grant', 'a site, giving read', 404],
  ]);
});
