import type { Role } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from '../spaces/access-level.ts';
import { collectionPolicy, type CollectionRecord } from '../spaces/collection.policy.ts';
import { mayGrantLevel } from '../spaces/space-permissions.policy.ts';

/**
 * A collection's access list (docs/api/spaces.md, "Permissions"), and `level`: the level an action gives
 * or takes (as for spaces, space-permissions.policy.ts).
 */
export type CollectionGrantRecord = CollectionRecord & { level?: Role | null };

/**
 * Who may see and change who can access a collection — and so every space inside it, at any depth —,
 * by the caller's effective level on it (access-level.ts), as for a space:
 * - the collection is as visible as for reading it (404 otherwise, and once deleted); the SSO gate applies;
 * - `list`: whoever reads the collection and holds a role in the organization (guests: 403);
 * - `grant` (invite, change, remove): the collection's admins, up to their own level (403 otherwise).
 */
export const collectionGrantPolicy = definePolicy<ContentActor, CollectionGrantRecord>()({
  visible: (actor, collection) => collectionPolicy.visible(actor, collection, 'read'),
  notFound: (collection) => collectionPolicy.notFound(collection),
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    list: (actor) => hasRole(actor.membership),
    grant: (actor, record) => atLeast(actor.level, 'admin') && mayGrantLevel(actor, record.level),
  },
  refusals: {
    list: 'Guests cannot see who else can access a collection',
    grant: (record) =>
      record.level
        ? `Changing who can access a collection needs the "admin" level, and nobody grants more than they hold ("${record.level}")`
        : 'Changing who can access a collection needs the "admin" level',
  },
});

export type CollectionGrantAction = keyof typeof collectionGrantPolicy.rules;
