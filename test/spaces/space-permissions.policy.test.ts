import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import type { ContentActor } from '../../src/modules/content-access/access-level.ts';
import { effectiveLevel } from '../../src/modules/content-access/access-level.ts';
import { levelsAbove, mayGrantLevel, spaceGrantPolicy } from '../../src/modules/spaces/space-permissions.policy.ts';
import { member, policyTable } from '../support/policy-table.ts';

/** A caller with this effective level on the space, holding `role` in the organization (null: a guest). */
const atLevel = (level: Role | null, extra: { role?: Role | null; organizationSso?: boolean } = {}): ContentActor => ({
  ...member(extra.role === undefined ? 'read' : extra.role),
  level,
  organizationSso: extra.organizationSso ?? false,
});

const actors = {
  'no level': atLevel(null, { role: null }),
  reader: atLevel('read'),
  editor: atLevel('edit'),
  creator: atLevel('create'),
  'space admin': atLevel('admin'),
  'space admin by a grant, reader by role': atLevel('admin', { role: 'read' }),
  'guest granted read': atLevel('read', { role: null }),
  'guest granted admin': atLevel('admin', { role: null }),
  'editor, not an SSO member, SSO enforced': atLevel('edit', { organizationSso: true }),
};
const space = { id: 's1', deletedAt: null };
const records = {
  space,
  'deleted space': { id: 's2', deletedAt: new Date('2025-01-01') },
  'granting read': { ...space, level: 'read' as Role },
  'granting admin': { ...space, level: 'admin' as Role },
};

describe('space access list policy (docs/api/spaces.md, "Permissions")', () => {
  policyTable(spaceGrantPolicy, actors, records, [
    // Visible as the space is: without "read" it does not exist; deleted, it does not exist for anyone.
    ['no level', 'list', 'space', 404],
    ['no level', 'grant', 'granting read', 404],
    ['space admin', 'list', 'deleted space', 404],
    ['space admin', 'grant', 'deleted space', 404],
    // Listing: whoever reads the space and holds a role; guests are refused.
    ['reader', 'list', 'space', 'allowed'],
    ['guest granted read', 'list', 'space', 403],
    ['guest granted admin', 'list', 'space', 403],
    // Granting: the space's admins (by role or by grant), up to their own level.
    ['reader', 'grant', 'granting read', 403],
    ['editor', 'grant', 'granting read', 403],
    ['creator', 'grant', 'granting read', 403],
    ['space admin', 'grant', 'granting read', 'allowed'],
    ['space admin', 'grant', 'granting admin', 'allowed'],
    ['space admin by a grant, reader by role', 'grant', 'granting admin', 'allowed'],
    ['guest granted admin', 'grant', 'granting read', 'allowed'],
    // The SSO gate.
    ['editor, not an SSO member, SSO enforced', 'list', 'space', 403],
  ]);

  it('nobody grants more than they hold', () => {
    expect(mayGrantLevel({ level: 'edit' }, 'edit')).toBe(true);
    expect(mayGrantLevel({ level: 'edit' }, 'review')).toBe(false);
    expect(mayGrantLevel({ level: 'admin' }, 'admin')).toBe(true);
    expect(mayGrantLevel({ level: null }, 'read')).toBe(false);
    expect(mayGrantLevel({ level: 'read' }, null)).toBe(true);
  });

  it('levelsAbove agrees with the order of levels', () => {
    expect(levelsAbove('edit')).toEqual(['review', 'create', 'admin']);
    expect(levelsAbove('admin')).toEqual([]);
  });
});

describe('the level rule with grants: strongest of role, defaults and grants; guests get only grants', () => {
  const level = (role: Role | null, grants: Role[], ownLevel: Role = 'read', inheritedLevels: Role[] = []) =>
    effectiveLevel({ membership: { role, disabled: false }, ownLevel, inheritedLevels, grants });
  it.each([
    ['reader, no grant', level('read', []), 'read'],
    ['reader granted edit', level('read', ['edit']), 'edit'],
    ['editor granted read (a grant never lowers)', level('edit', ['read']), 'edit'],
    ['reader, collection default comment, grant edit', level('read', ['edit'], 'read', ['comment']), 'edit'],
    ['reader, collection default review, grant edit', level('read', ['edit'], 'read', ['review']), 'review'],
    ['guest, no grant', level(null, []), null],
    ['guest, defaults do not apply', level(null, [], 'admin', ['admin']), null],
    ['guest granted comment directly and edit through a team', level(null, ['comment', 'edit']), 'edit'],
  ] as const)('%s → %s', (_name, got, expected) => expect(got).toBe(expected));

  it('a disabled member has no level, whatever their grants', () => {
    expect(effectiveLevel({ membership: { role: 'admin', disabled: true }, ownLevel: 'read', inheritedLevels: [], grants: ['admin'] })).toBeNull();
  });
});
