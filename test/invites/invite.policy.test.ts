import { describe } from 'vitest';
import { invitationPolicy, joinPolicy, type JoinRecord } from '../../src/modules/invites/invite.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

describe('invitation policy (docs/api/organizations.md, "Invitations": admins invite and manage invite links)', () => {
  policyTable(
    invitationPolicy,
    { admin: member('admin'), creator: member('create'), guest: member(null), outsider },
    { org: { id: 'o1' } },
    [
      ['admin', 'send', 'org', 'allowed'],
      ['creator', 'send', 'org', 403],
      ['guest', 'send', 'org', 403],
      ['outsider', 'send', 'org', 404],
      ['admin', 'manageLinks', 'org', 'allowed'],
      ['creator', 'manageLinks', 'org', 403],
    ],
  );
});

const open = { inviteLinks: true };
const closed = { inviteLinks: false };
const records: Record<string, JoinRecord> = {
  "ada's e-mail invitation": { inviteId: 'i1', organization: closed, invite: { userId: 'ada' }, link: null },
  'an invite link (links enabled)': { inviteId: 'l1', organization: open, invite: null, link: { id: 'l1' } },
  'an invite link (links disabled)': { inviteId: 'l1', organization: closed, invite: null, link: { id: 'l1' } },
  'an unknown ID': { inviteId: 'x', organization: open, invite: null, link: null },
  'an unknown organization': { inviteId: 'l1', organization: null, invite: null, link: null },
};

describe('join policy (docs/api/organizations.md, "Invitations": an invitation joins its addressee; a link whoever holds it, while enabled)', () => {
  policyTable(
    joinPolicy,
    {
      ada: { userId: 'ada', mayActIn: true },
      bob: { userId: 'bob', mayActIn: true },
      "ada, with a token scoped to another organization": { userId: 'ada', mayActIn: false },
    },
    records,
    [
      ['ada', 'join', "ada's e-mail invitation", 'allowed'],
      ['bob', 'join', "ada's e-mail invitation", 404],
      ['bob', 'join', 'an invite link (links enabled)', 'allowed'],
      ['bob', 'join', 'an invite link (links disabled)', 403],
      ['bob', 'join', 'an unknown ID', 404],
      ['bob', 'join', 'an unknown organization', 404],
      ['ada, with a token scoped to another organization', 'join', "ada's e-mail invitation", 404],
      ['ada, with a token scoped to another organization', 'join', 'an invite link (links enabled)', 404],
    ],
  );
});
