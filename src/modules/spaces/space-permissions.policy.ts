import type { Role } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from './access-level.ts';
import { spacePolicy, type SpaceRecord } from './space.policy.ts';

/**
 * A space's access list (docs/api/spaces.md, "Permissions"), and `level`: the level an action gives or
 * takes — the level granted, or the strongest of a grant's old and new levels, or the level of the grant
 * removed (none: listing).
 */
export type SpaceGrantRecord = SpaceRecord & { level?: Role | null };

export { isStronger, levelsAbove } from '../organizations/roles.ts';

/** Nobody grants (or changes, or removes) a level stronger than their own effective level on the space. */
export const mayGrantLevel = (actor: Pick<ContentActor, 'level'>, level: Role | null | undefined): boolean => !level || atLeast(actor.level, level);

/**
 * Who may see and change who can access a space, by the caller's effective level on it (access-level.ts):
 * - the space is as visible as for reading it: callers without `read` (and everyone, once it is deleted)
 *   get 404 as for an unknown ID; the organization's SSO gate applies;
 * - `list` (users, teams, everyone with access): whoever reads the space and holds a role in the
 *   organization — guests are refused (403), as they are the member directory;
 * - `grant` (invite, change, remove): the space's admins, and only up to their own level (403 otherwise).
 *   As only admins grant and `admin` is the strongest level, the cap refuses nothing today; it is the
 *   rule should granting ever open to lower levels.
 */
export const spaceGrantPolicy = definePolicy<ContentActor, SpaceGrantRecord>()({
  visible: (actor, space) => spacePolicy.visible(actor, space, 'read'),
  notFound: (space) => spacePolicy.notFound(space),
  gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
  rules: {
    list: (actor) => hasRole(actor.membership),
    grant: (actor, record) => atLeast(actor.level, 'admin') && mayGrantLevel(actor, record.level),
  },
  refusals: {
    list: 'Guests cannot see who else can access a space',
    grant: (record) =>
      record.level
        ? `Changing who can access a space needs the "admin" level, and nobody grants more than they hold ("${record.level}")`
        : 'Changing who can access a space needs the "admin" level',
  },
});

export type SpaceGrantAction = keyof typeof spaceGrantPolicy.rules;
