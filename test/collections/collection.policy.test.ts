import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../../src/core/authorization.ts';
import type { Role } from '../../src/generated/prisma/client.ts';
import { COLLECTION_PERMISSIONS, collectionPolicy } from '../../src/modules/content-access/collection.policy.ts';
import type { ContentActor } from '../../src/modules/content-access/access-level.ts';
import { member, policyTable } from '../support/policy-table.ts';

const atLevel = (level: Role | null, organizationSso = false): ContentActor => ({ ...member(level === null ? null : 'read'), level, organizationSso });

const actors = {
  'no level': atLevel(null),
  reader: atLevel('read'),
  editor: atLevel('edit'),
  creator: atLevel('create'),
  'collection admin': atLevel('admin'),
  'creator, not an SSO member, SSO enforced': atLevel('create', true),
};
const records = { collection: { id: 'c1', deletedAt: null }, 'deleted collection': { id: 'c2', deletedAt: new Date('2025-01-01') } };

describe('collection policy (docs/api/spaces.md, "Access levels": reading needs read, creating inside it create, changing it admin)', () => {
  policyTable(collectionPolicy, actors, records, [
    ['no level', 'read', 'collection', 404],
    ['reader', 'read', 'collection', 'allowed'],
    ['reader', 'create', 'collection', 403],
    ['editor', 'create', 'collection', 403],
    ['creator', 'create', 'collection', 'allowed'],
    ['creator', 'update', 'collection', 403],
    ['collection admin', 'update', 'collection', 'allowed'],
    ['creator', 'delete', 'collection', 403],
    ['collection admin', 'delete', 'collection', 'allowed'],
    ['collection admin', 'move', 'collection', 'allowed'],
    ['creator', 'move', 'collection', 403],
    ['collection admin', 'transfer', 'collection', 'allowed'],
    ['creator', 'transfer', 'collection', 403],
    // A deleted collection is gone for everyone, its admins too.
    ['collection admin', 'read', 'deleted collection', 404],
    ['collection admin', 'update', 'deleted collection', 404],
    ['creator, not an SSO member, SSO enforced', 'read', 'collection', 403],
  ]);

  it('the permissions object is the policy, key by key', () => {
    const of = (actor: ContentActor) => permissionsOf(collectionPolicy, actor, records.collection, COLLECTION_PERMISSIONS);
    expect(of(actors.reader)).toEqual({ admin: false, create: false });
    expect(of(actors.creator)).toEqual({ admin: false, create: true });
    expect(of(actors['collection admin'])).toEqual({ admin: true, create: true });
  });
});
