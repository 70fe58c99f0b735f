import type { Role } from '../../generated/prisma/client.ts';
import { definePolicy } from '../../core/authorization.ts';
import { blockedBySso, hasRole } from '../organizations/organization.policy.ts';
import { atLeast } from '../organizations/roles.ts';
import type { ContentActor } from '../content-access/access-level.ts';
import { spacePolicy, type SpaceRecord } from '../content-access/space.policy.ts';

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
 * Who may see and change who can access a space or a collection (its access list), by the caller's
 * effective level on it (access-level.ts) — one rule for both kinds, written here once:
 * - the item is as visible as for reading it (`base`'s rule): callers without `read` (and everyone, once
 *   it is deleted) get 404 as for an unknown ID; the organization's SSO gate applies;
 * - `list` (users, teams, everyone with access): whoever reads it and holds a role in the organization —
 *   guests are refused (403), as they are the member directory;
 * - `grant` (invite, change, remove): its admins, and only up to their own level (403 otherwise). As only
 *   admins grant and `admin` is the strongest level, the cap refuses nothing today; it is the rule should
 *   granting ever open to lower levels.
 */
export function contentGrantPolicy<Rec extends { id: string; deletedAt: Date | null }>(
  noun: 'space' | 'collection',
  base: { visible(actor: ContentActor, record: Rec, action: 'read'): boolean; notFound(record: Rec): string },
) {
  return definePolicy<ContentActor, Rec & { level?: Role | null }>()({
    visible: (actor, record) => base.visible(actor, record, 'read'),
    notFound: (record) => base.notFound(record),
    gates: [{ allows: (actor) => !blockedBySso({ sso: actor.organizationSso }, actor.membership), refusal: 'This organization requires signing in with SSO' }],
    rules: {
      list: (actor) => hasRole(actor.membership),
      grant: (actor, record) => atLeast(actor.level, 'admin') && mayGrantLevel(actor, record.level),
    },
    refusals: {
      list: `Guests cannot see who else can access a ${noun}`,
      grant: (record) =>
        record.level
          ? `Changing who can access a ${noun} needs the "admin" level, and nobody grants more than they hold ("${record.level}")`
          : `Changing who can access a ${noun} needs the "admin" level`,
    },
  });
}

/** A space's access list. */
export const spaceGrantPolicy = contentGrantPolicy<SpaceRecord>('space', spacePolicy);

export type SpaceGrantAction = keyof typeof spaceGrantPolicy.rules;
