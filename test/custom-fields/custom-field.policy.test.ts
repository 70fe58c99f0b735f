import { describe } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { customFieldPolicy, spaceFieldValuesPolicy } from '../../src/modules/custom-fields/custom-field.policy.ts';
import type { ContentActor } from '../../src/modules/content-access/access-level.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

describe('custom field policy (docs/api/spaces.md, "Custom fields": admins manage fields, any member reads them — reading the organization)', () => {
  policyTable(
    customFieldPolicy,
    { admin: member('admin'), creator: member('create'), guest: member(null), outsider },
    { field: { organizationId: 'o1' } },
    [
      ['admin', 'create', 'field', 'allowed'],
      ['admin', 'update', 'field', 'allowed'],
      ['admin', 'delete', 'field', 'allowed'],
      ['creator', 'create', 'field', 403],
      ['creator', 'update', 'field', 403],
      ['guest', 'delete', 'field', 403],
      ['outsider', 'create', 'field', 404],
    ],
  );
});

const atLevel = (level: Role | null): ContentActor => ({ ...member('read'), level, organizationSso: false });

describe("space field values policy (a space's values: reading them is reading the space, setting them needs edit)", () => {
  policyTable(
    spaceFieldValuesPolicy,
    { 'no level': atLevel(null), reader: atLevel('read'), commenter: atLevel('comment'), editor: atLevel('edit') },
    { space: { id: 's1', deletedAt: null }, 'deleted space': { id: 's2', deletedAt: new Date('2025-01-01') } },
    [
      ['no level', 'set', 'space', 404],
      ['reader', 'set', 'space', 403],
      ['commenter', 'set', 'space', 403],
      ['editor', 'set', 'space', 'allowed'],
      ['editor', 'set', 'deleted space', 404],
    ],
  );
});
