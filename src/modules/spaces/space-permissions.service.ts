import type { Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { ItemQuery, ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongestOf } from './access-level.ts';
import { spaceActor } from './content-access.ts';
import {
  changeGrant,
  deleteGrant,
  findGrant,
  grantNotFound,
  inviteesOf,
  listTeamGrants,
  listUserGrants,
  writeGrants,
  type Grantee,
  type InviteInput,
} from './content-grants.ts';
import { collectionDefaults, listPermissionsAggregate } from './permission-aggregate.ts';
import { spaceGrantPolicy, type SpaceGrantAction } from './space-permissions.policy.ts';
import { spacePolicy } from './space.policy.ts';

export { MAX_INVITEES_PER_CALL, type UserPermission } from './content-grants.ts';
export type { AggregatePermission, PermissionSource } from './permission-aggregate.ts';

/** The space, once the caller may `action` on its access list (space-permissions.policy.ts). */
async function spaceForGrants(ctx: Context, spaceId: string, action: SpaceGrantAction, level?: Role | null): Promise<Space> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw new NotFoundError(spacePolicy.notFound({ id: spaceId, deletedAt: null }));
  authorize(spaceGrantPolicy, await spaceActor(ctx, space), action, { ...space, level });
  return space;
}

const stronger = (a: Role | null | undefined, b: Role | null | undefined) => strongestOf([a, b]);

// ---- Writes ----

export type InviteToSpaceInput = InviteInput;

/**
 * Grants `role` on the space to organization members and teams (`inviteToSpace`), in one transaction
 * (content-grants.ts): a user or team that already has a grant gets the new level; unknown users and
 * teams are 404 and nothing is written; e-mail addresses are refused (400).
 */
export async function inviteToSpace(ctx: Context, spaceId: string, input: InviteToSpaceInput): Promise<boolean> {
  const invitees = inviteesOf(input);
  const space = await spaceForGrants(ctx, spaceId, 'grant', input.role);
  await writeGrants(ctx, { kind: 'space', id: space.id, organizationId: space.organizationId }, input.role, invitees);
  return true;
}

/**
 * Changes the level of an existing grant (404 when the user or team has none on the space). The caller
 * must be allowed to grant both the old and the new level. A `role` left out changes nothing.
 */
export async function updateSpaceGrant(ctx: Context, spaceId: string, grantee: Grantee, role: Role | null | undefined) {
  rejectNull('role', role);
  const existing = await findGrant(ctx, 'space', spaceId, grantee);
  const space = await spaceForGrants(ctx, spaceId, 'grant', stronger(existing?.role, role));
  if (!existing) throw grantNotFound('space', grantee);
  if (!role || role === existing.role) return true;
  await changeGrant(ctx, 'space', space.id, grantee, role);
  return true;
}

/**
 * Removes a user's or a team's grant: true when there was one (REST 205), false when there was none (204).
 * The caller must be allowed to grant the level removed.
 */
export async function removeSpaceGrant(ctx: Context, spaceId: string, grantee: Grantee): Promise<boolean> {
  const existing = await findGrant(ctx, 'space', spaceId, grantee);
  const space = await spaceForGrants(ctx, spaceId, 'grant', existing?.role);
  if (!existing) return false;
  return deleteGrant(ctx, 'space', space.id, grantee);
}

// ---- Lists ----

/** `listUserPermissionsInSpace`: the users given a level on the space itself, oldest grant first. */
export async function listSpaceUserPermissions(ctx: Context, spaceId: string, args: ListArgs) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  return listUserGrants(ctx, 'space', space.id, args);
}

/** `listTeamPermissionsInSpace`: the teams given a level on the space, oldest grant first. */
export async function listSpaceTeamPermissions(ctx: Context, spaceId: string, args: ListArgs, teamQuery?: ItemQuery) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  return listTeamGrants(ctx, 'space', space.id, args, teamQuery);
}

/**
 * `listPermissionsAggregateInSpace`: everyone who can access the space, with their effective level and
 * its sources (permission-aggregate.ts) — grants on the enclosing collections included.
 */
export async function listSpacePermissionsAggregate(ctx: Context, spaceId: string, args: ListArgs & { role?: Role | null }) {
  const space = await spaceForGrants(ctx, spaceId, 'list');
  const collections = collectionDefaults(await ctx.loaders.organizationCollections.load(space.organizationId), space.collectionId);
  return listPermissionsAggregate(
    ctx,
    {
      organizationId: space.organizationId,
      spaceId: space.id,
      defaults: [{ kind: 'space-default', level: space.defaultLevel }, ...collections.map((c) => ({ kind: 'collection-default' as const, level: c.level, id: c.id }))],
      collectionIds: collections.map((c) => c.id),
    },
    args,
  );
}
