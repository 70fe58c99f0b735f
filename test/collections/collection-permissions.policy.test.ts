import { describe, expect, it } from 'vitest';
import type { CollectionNode } from '../../src/core/loaders.ts';
import type { Role } from '../../src/generated/prisma/client.ts';
import type { ContentActor } from '../../src/modules/content-access/access-level.ts';
import { effectiveLevel } from '../../src/modules/content-access/access-level.ts';
import { collectionGrantPolicy } from '../../src/modules/collections/collection-permissions.policy.ts';
import { ancestorGrants, ancestorLevels, collectionTreeDepth, grantedCollectionIds } from '../../src/modules/content-access/content-access.ts';
import { member, policyTable } from '../support/policy-table.ts';

/** A caller with this effective level on the collection, holding `role` in the organization (null: a guest). */
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
  'collection admin': atLevel('admin'),
  'collection admin by a grant, reader by role': atLevel('admin', { role: 'read' }),
  'guest granted read': atLevel('read', { role: null }),
  'guest granted admin': atLevel('admin', { role: null }),
  'editor, not an SSO member, SSO enforced': atLevel('edit', { organizationSso: true }),
};
const collection = { id: 'c1', deletedAt: null };
const records = {
  collection,
  'deleted collection': { id: 'c2', deletedAt: new Date('2025-01-01') },
  'granting read': { ...collection, level: 'read' as Role },
  'granting admin': { ...collection, level: 'admin' as Role },
};

describe('collection access list policy (docs/api/spaces.md, "Permissions")', () => {
  policyTable(collectionGrantPolicy, actors, records, [
    ['no level', 'list', 'collection', 404],
    ['no level', 'grant', 'granting read', 404],
    ['collection admin', 'list', 'deleted collection', 404],
    ['collection admin', 'grant', 'deleted collection', 404],
    ['reader', 'list', 'collection', 'allowed'],
    ['guest granted read', 'list', 'collection', 403],
    ['guest granted admin', 'list', 'collection', 403],
    ['reader', 'grant', 'granting read', 403],
    ['editor', 'grant', 'granting read', 403],
    ['creator', 'grant', 'granting read', 403],
    ['collection admin', 'grant', 'granting read', 'allowed'],
    ['collection admin', 'grant', 'granting admin', 'allowed'],
    ['collection admin by a grant, reader by role', 'grant', 'granting admin', 'allowed'],
    ['guest granted admin', 'grant', 'granting read', 'allowed'],
    ['editor, not an SSO member, SSO enforced', 'list', 'collection', 403],
  ]);
});

/**
 * A tree: top ⊃ mid ⊃ leaf, and apart; `grants` are the viewer's on each (as the loaders read them), and
 * `deleted` collections are skipped.
 */
function tree(grants: Partial<Record<'top' | 'mid' | 'leaf' | 'apart', Role[]>>, defaults: Partial<Record<string, Role>> = {}, deleted: string[] = []) {
  const node = (id: string, parentId: string | null): [string, CollectionNode] => [
    id,
    {
      id,
      parentId,
      organizationId: 'o',
      defaultLevel: defaults[id] ?? 'read',
      deletedAt: deleted.includes(id) ? new Date('2025-01-01') : null,
      viewerGrants: grants[id as keyof typeof grants] ?? [],
    },
  ];
  return new Map([node('top', null), node('mid', 'top'), node('leaf', 'mid'), node('apart', null)]);
}

/** The level of a space in `collectionId` (null: top level), as spaceActor computes it. */
const spaceLevel = (role: Role | null, collections: Map<string, CollectionNode>, collectionId: string | null, spaceGrants: Role[] = [], ownLevel: Role = 'read') =>
  effectiveLevel({
    membership: { role, disabled: false },
    ownLevel,
    inheritedLevels: ancestorLevels(collections, collectionId),
    grants: [...spaceGrants, ...ancestorGrants(collections, collectionId)],
  });

/** The level of a collection, as collectionActor computes it: its own grants and those around it. */
const collectionLevel = (role: Role | null, collections: Map<string, CollectionNode>, id: string) =>
  effectiveLevel({
    membership: { role, disabled: false },
    ownLevel: collections.get(id)!.defaultLevel,
    inheritedLevels: ancestorLevels(collections, collections.get(id)!.parentId),
    grants: ancestorGrants(collections, id),
  });

describe('the level rule with collection grants: a grant on a collection reaches everything inside it, at any depth', () => {
  it.each([
    ['guest, no grant anywhere', spaceLevel(null, tree({}), 'leaf'), null],
    ['guest granted read on the top collection, space two levels down', spaceLevel(null, tree({ top: ['read'] }), 'leaf'), 'read'],
    ['guest granted edit on the middle collection, space in the leaf', spaceLevel(null, tree({ mid: ['edit'] }), 'leaf'), 'edit'],
    ['guest granted on the leaf: nothing above it', spaceLevel(null, tree({ leaf: ['edit'] }), 'mid'), null],
    ['guest granted on another collection', spaceLevel(null, tree({ apart: ['admin'] }), 'leaf'), null],
    ['guest granted on a collection, space at the top level', spaceLevel(null, tree({ top: ['admin'] }), null), null],
    ['guest: the strongest of grants at several depths and on the space', spaceLevel(null, tree({ top: ['comment'], mid: ['review'] }), 'leaf', ['edit']), 'review'],
    ['guest: team and user grants on the same collection', spaceLevel(null, tree({ mid: ['read', 'create'] }), 'leaf'), 'create'],
    ['guest: defaults still do not apply', spaceLevel(null, tree({ top: ['read'] }, { top: 'admin', mid: 'admin' }), 'leaf'), 'read'],
    ['guest: a grant on a deleted collection reaches nothing', spaceLevel(null, tree({ top: ['admin'] }, {}, ['top']), 'leaf'), null],
    ['reader raised by a collection grant', spaceLevel('read', tree({ top: ['edit'] }), 'leaf'), 'edit'],
    ['editor not lowered by a collection grant', spaceLevel('edit', tree({ top: ['read'] }), 'leaf'), 'edit'],
    ['reader: a collection default and a collection grant, the stronger wins', spaceLevel('read', tree({ top: ['comment'] }, { mid: 'review' }), 'leaf'), 'review'],
    ['collection: a guest granted on it', collectionLevel(null, tree({ mid: ['edit'] }), 'mid'), 'edit'],
    ['collection: a guest granted on its parent', collectionLevel(null, tree({ top: ['comment'] }), 'leaf'), 'comment'],
    ['collection: a guest granted below it has nothing here', collectionLevel(null, tree({ leaf: ['admin'] }), 'top'), null],
    ['collection: a reader granted admin on it', collectionLevel('read', tree({ mid: ['admin'] }), 'mid'), 'admin'],
  ] as const)('%s → %s', (_name, got, expected) => expect(got).toBe(expected));

  it('a disabled member has no level, whatever their collection grants', () => {
    const collections = tree({ top: ['admin'] });
    expect(effectiveLevel({ membership: { role: null, disabled: true }, ownLevel: 'read', inheritedLevels: [], grants: ancestorGrants(collections, 'leaf') })).toBeNull();
  });

  it('what a guest lists: the granted collections and everything under them, live ones only', () => {
    expect(grantedCollectionIds(tree({})).sort()).toEqual([]);
    expect(grantedCollectionIds(tree({ top: ['read'] })).sort()).toEqual(['leaf', 'mid', 'top']);
    expect(grantedCollectionIds(tree({ mid: ['read'] })).sort()).toEqual(['leaf', 'mid']);
    expect(grantedCollectionIds(tree({ mid: ['read'], apart: ['edit'] })).sort()).toEqual(['apart', 'leaf', 'mid']);
    expect(grantedCollectionIds(tree({ top: ['read'] }, {}, ['mid', 'leaf'])).sort()).toEqual(['top']);
  });

  it('the depth of a tree bounds the SQL climb to granted collections', () => {
    expect(collectionTreeDepth(new Map())).toBe(0);
    expect(collectionTreeDepth(tree({}))).toBe(3);
  });
});
