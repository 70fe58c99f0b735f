import type { Role } from '../../generated/prisma/client.ts';
import { collectionPolicy, type CollectionRecord } from '../content-access/collection.policy.ts';
import { contentGrantPolicy } from '../spaces/space-permissions.policy.ts';

/**
 * A collection's access list (docs/api/spaces.md, "Permissions"), and `level`: the level an action gives
 * or takes (as for spaces, space-permissions.policy.ts).
 */
export type CollectionGrantRecord = CollectionRecord & { level?: Role | null };

/**
 * Who may see and change who can access a collection — and so every space inside it, at any depth —:
 * the same rule as a space's (spaces' space-permissions.policy.ts `contentGrantPolicy`), on the
 * collection's visibility (collection.policy.ts).
 */
export const collectionGrantPolicy = contentGrantPolicy<CollectionRecord>('collection', collectionPolicy);

export type CollectionGrantAction = keyof typeof collectionGrantPolicy.rules;
