import type { Collection, Prisma, Role, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, can, permissionsOf } from '../../core/authorization.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { CollectionNode, OrganizationAccessRecord } from '../../core/loaders.ts';
import { COLLECTION_PERMISSIONS, collectionPolicy, type CollectionAction } from './collection.policy.ts';
import { effectiveLevel, type ContentActor } from './access-level.ts';
import { SPACE_PERMISSIONS, spacePolicy, type SpaceAction } from './space.policy.ts';

/** defaultLevel of each collection from `collectionId` up to the top level, innermost first. */
export function ancestorLevels(collections: Map<string, CollectionNode>, collectionId: string | null): Role[] {
  const levels: Role[] = [];
  if (!collectionId) return levels; // most items sit at the top level: no walk, no set
  const seen = new Set<string>();
  for (let id: string | null = collectionId; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
    seen.add(id);
    const node = collections.get(id);
    if (node && !node.deletedAt) levels.push(node.defaultLevel);
  }
  return levels;
}

/**
 * The levels granted to the viewer (or, with `grantsOn`, to someone else) on each live collection from
 * `collectionId` up to the top level (the loaders read the viewer's with the collection tree): a grant on
 * a collection reaches all it contains.
 */
export function ancestorGrants(
  collections: Map<string, CollectionNode>,
  collectionId: string | null,
  grantsOn: (node: CollectionNode) => Role[] = (node) => node.viewerGrants,
): Role[] {
  const grants: Role[] = [];
  if (!collectionId) return grants;
  const seen = new Set<string>();
  for (let id: string | null = collectionId; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
    seen.add(id);
    const node = collections.get(id);
    if (node && !node.deletedAt) grants.push(...grantsOn(node));
  }
  return grants;
}

/** The live collections the viewer holds a grant on, or inside one (at any depth): what their grants reach. */
export function grantedCollectionIds(collections: Map<string, CollectionNode>): string[] {
  return [...collections.values()].filter((c) => !c.deletedAt && ancestorGrants(collections, c.id).length > 0).map((c) => c.id);
}

/** The depth of an organization's collection tree (0: no collections), for filters that climb it in SQL. */
export function collectionTreeDepth(collections: Map<string, CollectionNode>): number {
  let depth = 0;
  for (const node of collections.values()) {
    let d = 0;
    const seen = new Set<string>();
    for (let id: string | null = node.id; id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
      seen.add(id);
      d++;
    }
    depth = Math.max(depth, d);
  }
  return depth;
}

/**
 * The caller relative to one item of an organization, computed synchronously from what the loaders
 * hold: the organization's access record (the row, the viewer's membership, the collection tree) and
 * the viewer's grants on the item. List items call this once each, so it awaits nothing itself.
 */
function contentActorFrom(
  ctx: Context,
  access: OrganizationAccessRecord | null,
  item: { defaultLevel: Role; parentCollectionId: string | null; collectionId?: string },
  grants: Role[],
): ContentActor {
  const membership = access?.membership ?? null;
  const collections = access?.collections ?? new Map();
  const level = effectiveLevel({
    membership,
    ownLevel: item.defaultLevel,
    inheritedLevels: ancestorLevels(collections, item.parentCollectionId),
    // A collection's own grants are in the tree, a space's come with it.
    grants: [...grants, ...ancestorGrants(collections, item.collectionId ?? item.parentCollectionId)],
  });
  return { userId: ctx.viewer?.user.id ?? '', membership, level, organizationSso: access?.organization.sso ?? false };
}

/** The caller relative to a space: membership, effective level, and whether the organization enforces SSO. */
export async function spaceActor(ctx: Context, space: Space): Promise<ContentActor> {
  const [access, grants] = await Promise.all([
    ctx.loaders.organizationAccess.load(space.organizationId),
    ctx.loaders.viewerSpaceGrants.load(space.id),
  ]);
  return contentActorFrom(ctx, access, { defaultLevel: space.defaultLevel, parentCollectionId: space.collectionId }, grants);
}

export async function collectionActor(ctx: Context, collection: Collection): Promise<ContentActor> {
  const access = await ctx.loaders.organizationAccess.load(collection.organizationId);
  return contentActorFrom(ctx, access, collectionItem(collection), []);
}

const collectionItem = (collection: Collection) => ({
  defaultLevel: collection.defaultLevel,
  parentCollectionId: collection.parentId,
  collectionId: collection.id,
});

export interface SpaceAccess {
  space: Space;
  level: Role;
  actor: ContentActor;
}

/**
 * Loads a space and authorizes `action` on it (space.policy.ts): unknown spaces, spaces the viewer
 * cannot read and deleted spaces (except for their admins' `view` and `restore`) are all the same 404;
 * a readable space the action is refused on is a 403.
 */
export async function spaceFor(ctx: Context, spaceId: string, action: SpaceAction): Promise<SpaceAccess> {
  const space = await ctx.loaders.space.load(spaceId);
  if (!space) throw new NotFoundError(spacePolicy.notFound({ id: spaceId, deletedAt: null }));
  const actor = await spaceActor(ctx, space);
  authorize(spacePolicy, actor, action, space);
  return { space, level: actor.level!, actor };
}

/**
 * `Space.permissions`, from the same policy that `spaceFor` enforces. Synchronous when the loaders
 * already hold the organization and the viewer's grants on the space (a page of spaces primes them), so
 * a list's items complete without a promise each.
 */
export function spacePermissions(ctx: Context, space: Space) {
  const access = ctx.loaders.organizationAccess.peek(space.organizationId);
  const grants = ctx.loaders.viewerSpaceGrants.peek(space.id);
  const permissions = (actor: ContentActor) => permissionsOf(spacePolicy, actor, space, SPACE_PERMISSIONS);
  if (access !== undefined && grants !== undefined) {
    return permissions(contentActorFrom(ctx, access, { defaultLevel: space.defaultLevel, parentCollectionId: space.collectionId }, grants));
  }
  return spaceActor(ctx, space).then(permissions);
}

/**
 * Whether the viewer may `action` on a space that reached them as a graph object (e.g. read the content
 * of a space in a list), by the policy `spaceFor` enforces: a space object is not proof of that (its
 * admins get a deleted space, whose content is not read). Synchronous when the loaders already hold
 * what it needs, as `spacePermissions`.
 */
export function viewerCan(ctx: Context, space: Space, action: SpaceAction): boolean | Promise<boolean> {
  const access = ctx.loaders.organizationAccess.peek(space.organizationId);
  const grants = ctx.loaders.viewerSpaceGrants.peek(space.id);
  if (access !== undefined && grants !== undefined) {
    return can(spacePolicy, contentActorFrom(ctx, access, { defaultLevel: space.defaultLevel, parentCollectionId: space.collectionId }, grants), action, space);
  }
  return spaceActor(ctx, space).then((actor) => can(spacePolicy, actor, action, space));
}

export interface CollectionAccess {
  collection: Collection;
  level: Role;
  actor: ContentActor;
}

/** Like `spaceFor`, for collections (deleted collections are gone for everyone). */
export async function collectionFor(ctx: Context, collectionId: string, action: CollectionAction): Promise<CollectionAccess> {
  const collection = await ctx.loaders.collection.load(collectionId);
  if (!collection) throw new NotFoundError(collectionPolicy.notFound({ id: collectionId, deletedAt: null }));
  const actor = await collectionActor(ctx, collection);
  authorize(collectionPolicy, actor, action, collection);
  return { collection, level: actor.level!, actor };
}

/** `Collection.permissions`, from the same policy that `collectionFor` enforces; synchronous as `spacePermissions`. */
export function collectionPermissions(ctx: Context, collection: Collection) {
  const access = ctx.loaders.organizationAccess.peek(collection.organizationId);
  const permissions = (actor: ContentActor) => permissionsOf(collectionPolicy, actor, collection, COLLECTION_PERMISSIONS);
  if (access !== undefined) {
    return permissions(contentActorFrom(ctx, access, collectionItem(collection), []));
  }
  return collectionActor(ctx, collection).then(permissions);
}

/** Members of the item's organization who hold a role (not guests, not disabled). */
export const heldRoleBy = (userId: string) => ({
  organization: { members: { some: { userId, role: { not: null }, disabled: false } } },
});

/**
 * Live collections granted to a user (or one of their teams), or inside one, as a filter climbing the
 * tree `depth` levels (SQL has no recursion here: pass the depth of the organization's tree).
 */
export function collectionGrantedTo(userId: string, depth: number): Prisma.CollectionWhereInput {
  const granted: Prisma.CollectionWhereInput[] = [
    { deletedAt: null, userGrants: { some: { userId } } },
    { deletedAt: null, teamGrants: { some: { team: { members: { some: { userId } } } } } },
  ];
  let where: Prisma.CollectionWhereInput = { OR: granted };
  for (let i = 1; i < depth; i++) where = { OR: [...granted, { parent: where }] };
  return where;
}

/**
 * The live spaces a user can reach, as one filter (usable for one organization or a batch of them):
 * every space of an organization where they hold a role — their role is at least `read` everywhere —
 * plus, as a guest, the spaces granted to them or their teams, directly or on an enclosing collection
 * (`collectionDepth`: how deep the collection trees go, see `collectionTreeDepth`).
 */
export function reachableSpacesWhere(userId: string, collectionDepth: number): Prisma.SpaceWhereInput {
  const enabledMember = { organization: { members: { some: { userId, disabled: false } } } };
  const viaCollections = collectionDepth > 0 ? [{ ...enabledMember, collection: collectionGrantedTo(userId, collectionDepth) }] : [];
  return {
    deletedAt: null,
    OR: [
      heldRoleBy(userId),
      { ...enabledMember, userGrants: { some: { userId } } },
      { ...enabledMember, teamGrants: { some: { team: { members: { some: { userId } } } } } },
      ...viaCollections,
    ],
  };
}

/**
 * The live collections a user can reach, as one filter (for a batch of organizations, as
 * `reachableSpacesWhere`): all of them where they hold a role, else those granted to them or their teams
 * and what those contain.
 */
export function reachableCollectionsWhere(userId: string, collectionDepth: number): Prisma.CollectionWhereInput {
  const enabledMember = { organization: { members: { some: { userId, disabled: false } } } };
  return { deletedAt: null, OR: [heldRoleBy(userId), { ...enabledMember, ...collectionGrantedTo(userId, collectionDepth) }] };
}

/**
 * The spaces of an organization the viewer sees in lists. The viewer's membership came with the
 * access check (no statement of its own), so the filter says only what it implies: a member with a role
 * sees every live space, a guest the spaces granted to them or their teams, directly or on an enclosing
 * collection (the collection tree, with the viewer's grants, came with the access check too). Spelling the membership
 * rule in SQL as well (`reachableSpacesWhere`) would make PostgreSQL re-check it for every row of the
 * page and of its count.
 */
export async function visibleSpacesWhere(ctx: Context, organizationId: string): Promise<Prisma.SpaceWhereInput> {
  const userId = ctx.viewer?.user.id ?? '';
  const access = await ctx.loaders.organizationAccess.load(organizationId);
  const membership = access?.membership;
  if (!membership || membership.disabled) return { organizationId, id: { in: [] } };
  if (membership.role) return { organizationId, deletedAt: null };
  const collections = grantedCollectionIds(access.collections);
  return {
    organizationId,
    deletedAt: null,
    OR: [
      { userGrants: { some: { userId } } },
      { teamGrants: { some: { team: { members: { some: { userId } } } } } },
      ...(collections.length ? [{ collectionId: { in: collections } }] : []),
    ],
  };
}
