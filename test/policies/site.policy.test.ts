import { describe } from 'vitest';
import { sitePolicy, type SiteActor } from '../../src/modules/sites/site.policy.ts';
import { member, outsider, policyTable } from './table.ts';

const site = (role: Parameters<typeof member>[0], extra: Parameters<typeof member>[1] = {}, organizationSso = false): SiteActor => ({
  ...member(role, extra),
  organizationSso,
});

describe("site policy (docs/api/sites.md, \"Who may\": members with a role read, guests nothing, the create role creates, admins and the site's creator manage)", () => {
  policyTable(
    sitePolicy,
    {
      admin: site('admin'),
      creator: site('create', { userId: 'maker' }),
      'other creator': site('create'),
      editor: site('edit'),
      reader: site('read'),
      guest: site(null),
      'disabled admin': site('admin', { disabled: true }),
      'non-SSO reader of an SSO organization': site('read', {}, true),
      outsider: { ...outsider, organizationSso: false },
    },
    { 'their site': { id: 's1', createdById: 'maker' }, 'a site': { id: 's2', createdById: 'someone' }, 'an orphan site': { id: 's3', createdById: null } },
    [
      ['admin', 'manage', 'a site', 'allowed'],
      ['admin', 'manage', 'an orphan site', 'allowed'],
      ['creator', 'manage', 'their site', 'allowed'],
      ['creator', 'manage', 'a site', 403],
      ['other creator', 'manage', 'an orphan site', 403],
      ['creator', 'create', 'a site', 'allowed'],
      ['editor', 'create', 'a site', 403],
      ['reader', 'read', 'a site', 'allowed'],
      ['reader', 'manage', 'a site', 403],
      ['guest', 'read', 'a site', 403],
      ['guest', 'list', 'a site', 403],
      ['reader', 'list', 'a site', 'allowed'],
      ['guest', 'create', 'a site', 403],
      ['non-SSO reader of an SSO organization', 'read', 'a site', 403],
      ['disabled admin', 'read', 'a site', 404],
      ['outsider', 'read', 'a site', 404],
      ['outsider', 'manage', 'a site', 404],
    ],
  );
});
