import { describe } from 'vitest';
import { memberPolicy } from '../../src/modules/members/member.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

const actors = {
  admin: member('admin', { userId: 'ada' }),
  reader: member('read', { userId: 'rob' }),
  guest: member(null, { userId: 'gus' }),
  'disabled admin': member('admin', { disabled: true, userId: 'dan' }),
  outsider,
};
const records = { 'themselves (rob)': { userId: 'rob' }, 'themselves (gus)': { userId: 'gus' }, 'another member': { userId: 'ann' } };

describe('member policy (docs/api/organizations.md, "Rules": the directory is for members with a role; admins change roles; a member may leave)', () => {
  policyTable(memberPolicy, actors, records, [
    // Members with a role see any member; guests only themselves — about anyone else, known or not, 403.
    ['reader', 'read', 'another member', 'allowed'],
    ['guest', 'read', 'themselves (gus)', 'allowed'],
    ['guest', 'read', 'another member', 403],
    ['outsider', 'read', 'another member', 404],
    ['disabled admin', 'read', 'another member', 404],
    // Admins change roles and set SSO members.
    ['admin', 'updateRole', 'another member', 'allowed'],
    ['reader', 'updateRole', 'another member', 403],
    ['reader', 'updateRole', 'themselves (rob)', 403],
    ['admin', 'setSso', 'another member', 'allowed'],
    ['reader', 'setSso', 'themselves (rob)', 403],
    // Admins remove members; any member may leave.
    ['admin', 'remove', 'another member', 'allowed'],
    ['reader', 'remove', 'another member', 403],
    ['reader', 'remove', 'themselves (rob)', 'allowed'],
    ['guest', 'remove', 'themselves (gus)', 'allowed'],
    // A member's spaces: admins, and the member themselves.
    ['admin', 'listSpaces', 'another member', 'allowed'],
    ['reader', 'listSpaces', 'themselves (rob)', 'allowed'],
    ['reader', 'listSpaces', 'another member', 403],
  ]);
});
