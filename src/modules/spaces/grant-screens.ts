import type { Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import type { ItemQuery, ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { strongestOf } from '../content-access/index.ts';
import {
  changeGrant,
  deleteGrant,
  findGrant,
  grantNotFound,
  inviteesOf,
  listTeamGrants,
  listUserGrants,
  writeGrants,
  type GrantedKind,
  type Grantee,
  type InviteInput,
} from './content-grants.ts';

/**
 * The access-list operations of a space, a collection or a site — invite, change, remove, list users,
 * list teams — written once for every kind (GitBook's `…/permissions` operations). What differs between
 * kinds is only how the resource is found and who may act on its list (each kind's grant policy): the
 * kind's `GrantedResource`. Grants themselves are stored by content-grants.ts.
 */

/** The resource a grant operation acts on, as far as grants go. */
export interface GrantTargetRow {
  id: string;
  organizationId: string;
}

/** How a kind's access list is reached, for the path `P` that names a resource of it. */
export interface GrantedResource<P> {
  kind: GrantedKind;
  /** The resource's ID in its path (to find a grant before the caller is authorized). */
  idOf(path: P): string;
  /**
   * The resource, once the caller may `list` its access list or `grant` on it the level `level` (the
   * level given, the stronger of a grant's old and new levels, or the level removed): the kind's grant
   * policy decides (404 for those who may not see it, 403 for those who may not act).
   */
  forGrants(ctx: Context, path: P, action: 'list' | 'grant', level?: Role | null): Promise<GrantTargetRow>;
}

export interface GrantScreens<P> {
  /** Gives `role` to members, teams and e-mail addresses (content-grants.ts `writeGrants`), in one transaction. */
  invite(ctx: Context, path: P, input: InviteInput): Promise<boolean>;
  /**
   * Changes the level of an existing grant (404 when the user or team has none). The caller must be
   * allowed to grant both the old and the new level. A `role` left out changes nothing.
   */
  update(ctx: Context, path: P, grantee: Grantee, role: Role | null | undefined): Promise<boolean>;
  /** Removes a grant: true when there was one (REST 205), false when there was none (204). The caller must be allowed to grant the level removed. */
  remove(ctx: Context, path: P, grantee: Grantee): Promise<boolean>;
  /** The users given a level on the resource itself, oldest grant first. */
  listUsers(ctx: Context, path: P, args: ListArgs): ReturnType<typeof listUserGrants>;
  /** The teams given a level on the resource itself, oldest grant first. */
  listTeams(ctx: Context, path: P, args: ListArgs, teamQuery?: ItemQuery): ReturnType<typeof listTeamGrants>;
}

export function grantScreens<P>(resource: GrantedResource<P>): GrantScreens<P> {
  const { kind } = resource;
  return {
    async invite(ctx, path, input) {
      const invitees = inviteesOf(input);
      const target = await resource.forGrants(ctx, path, 'grant', input.role);
      await writeGrants(ctx, { kind, id: target.id, organizationId: target.organizationId }, input.role, invitees);
      return true;
    },
    async update(ctx, path, grantee, role) {
      rejectNull('role', role);
      const existing = await findGrant(ctx, kind, resource.idOf(path), grantee);
      // The resource must be one the caller may grant on (404 or 403 otherwise, whatever grants exist on it).
      const target = await resource.forGrants(ctx, path, 'grant', strongestOf([existing?.role, role]));
      if (!existing) throw grantNotFound(kind, grantee);
      if (!role || role === existing.role) return true;
      await changeGrant(ctx, kind, target.id, grantee, role);
      return true;
    },
    async remove(ctx, path, grantee) {
      const existing = await findGrant(ctx, kind, resource.idOf(path), grantee);
      const target = await resource.forGrants(ctx, path, 'grant', existing?.role);
      if (!existing) return false;
      return deleteGrant(ctx, kind, target.id, grantee);
    },
    async listUsers(ctx, path, args) {
      const target = await resource.forGrants(ctx, path, 'list');
      return listUserGrants(ctx, kind, target.id, args);
    },
    async listTeams(ctx, path, args, teamQuery) {
      const target = await resource.forGrants(ctx, path, 'list');
      return listTeamGrants(ctx, kind, target.id, args, teamQuery);
    },
  };
}
