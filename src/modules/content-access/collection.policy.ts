import type { Collection, Role } from '../../generated/prisma/client.ts';
import { definePolicy, type Rule } from '../../core/authorization.ts';
import { blockedBySso } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from './access-level.ts';

export type CollectionRecord = Pick<Collection, 'id' | 'deletedAt'>;

const needs = (level: Role): Rule<ContentActor, CollectionRecord> => (actor) => atLeast(actor.level, level);

/**
 * Who may do what with a collection (docs/api/spaces.md, "Access levels"), by the caller's effective level on it:
 * reading needs `read`; creating spaces and collections inside it `create`; changing it (title,
 * description, `defaultLevel`), deleting, moving and transferring it `admin`. Callers without `read`
 * get 404 as for an unknown ID, and a deleted collection is gone for everyone. Where the organization
 * enforces SSO, members who are not SSO members get 403 (admins excepted).
 */
export const collectionPolicy = definePolicy<ContentActor, CollectionRecord>()({
  visible: ({ level }, collection) => atLeast(level, 'read') && !collection.deletedAt,
  notFound: (collection) => `Collection "${collection.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    read: needs('read'),
    create: needs('create'),
    update: needs('admin'),
    delete: needs('admin'),
    move: needs('admin'),
    transfer: needs('admin'),
  },
  refusals: {
    read: 'This needs the "read" level on the collection',
    create: 'Creating content in this collection needs the "create" level on it',
    update: 'This needs the "admin" level on the collection',
    delete: 'This needs the "admin" level on the collection',
    move: 'This needs the "admin" level on the collection',
    transfer: 'This needs the "admin" level on the collection',
  },
});

export type CollectionAction = keyof typeof collectionPolicy.rules;

/** `Collection.permissions`: each key is the action it stands for. */
export const COLLECTION_PERMISSIONS = { admin: 'update', create: 'create' } as const satisfies Record<string, CollectionAction>;
