import type { Role, Space } from '../../generated/prisma/client.ts';
import { definePolicy, type Rule } from '../../core/authorization.ts';
import { blockedBySso } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from './access-level.ts';

export type SpaceRecord = Pick<Space, 'id' | 'deletedAt'>;

const needs = (level: Role): Rule<ContentActor, SpaceRecord> => (actor) => atLeast(actor.level, level);

/** Reviewing a space's change requests (approving, requesting changes) needs `review` on it: the space's `review` permission. */
export const mayReview = (actor: Pick<ContentActor, 'level'>): boolean => atLeast(actor.level, 'review');
/** Merging into a space — a change request, an update — needs `review` on it (the change request policy asks this too). */
export const mayMerge = mayReview;

/**
 * Who may do what with a space (docs/api/spaces.md, "Access levels" and "Deletion"), by the caller's effective
 * level on it (access-level.ts): reading needs `read`; commenting `comment`; editing title, emoji and
 * edit mode `edit`; reviewing and merging `review`; changing who can access it (`defaultLevel`,
 * `visibility`), deleting, moving, transferring and restoring `admin`. Creating a space is an action on
 * where it goes: the organization's `createContent` or the parent collection's `create`.
 *
 * Callers without `read`, and everyone but its admins once it is deleted, get 404 as for an unknown ID;
 * a deleted space's admins still `view` it and `restore` it, and nothing else. Where the organization
 * enforces SSO, members who are not SSO members get 403 (admins excepted).
 */
export const spacePolicy = definePolicy<ContentActor, SpaceRecord>()({
  visible: ({ level }, space, action) =>
    atLeast(level, 'read') && (!space.deletedAt || (atLeast(level, 'admin') && (action === 'view' || action === 'restore'))),
  notFound: (space) => `Space "${space.id}" not found`,
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    /** The space itself (also while deleted, for its admins). */
    view: needs('read'),
    /** Its content: pages, links, custom field values; duplicating it. */
    read: needs('read'),
    comment: needs('comment'),
    edit: needs('edit'),
    review: mayReview,
    merge: mayMerge,
    manageAccess: needs('admin'),
    administer: needs('admin'),
    delete: needs('admin'),
    move: needs('admin'),
    transfer: needs('admin'),
    restore: needs('admin'),
  },
  refusals: {
    view: 'This needs the "read" level on the space',
    read: 'This needs the "read" level on the space',
    comment: 'This needs the "comment" level on the space',
    edit: 'This needs the "edit" level on the space',
    review: 'This needs the "review" level on the space',
    merge: 'This needs the "review" level on the space',
    manageAccess: 'Changing who can access a space needs the "admin" level',
    administer: 'This needs the "admin" level on the space',
    delete: 'This needs the "admin" level on the space',
    move: 'This needs the "admin" level on the space',
    transfer: 'This needs the "admin" level on the space',
    restore: 'This needs the "admin" level on the space',
  },
});

export type SpaceAction = keyof typeof spacePolicy.rules;

/**
 * `Space.permissions` (GitBook's ten keys): each key is the action it stands for. Invite links are the
 * space's access settings (`admin`); a Git sync writes the space's main content, as a merge does
 * (`review`); integrations are installed by its admins.
 */
export const SPACE_PERMISSIONS = {
  view: 'read',
  access: 'view',
  admin: 'administer',
  viewInviteLinks: 'manageAccess',
  edit: 'edit',
  triggerGitSync: 'merge',
  comment: 'comment',
  merge: 'merge',
  review: 'review',
  installIntegration: 'administer',
} as const satisfies Record<string, SpaceAction>;
