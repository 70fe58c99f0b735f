import DataLoader from 'dataloader';
import type { Collection, Member, Organization, Role, Space } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { viewerMayActIn, type Viewer } from './viewer.ts';

/**
 * What level computations need of an organization's collections: one row each, loaded once, with the
 * levels granted on it to the viewer (directly or through their teams) — a grant on a collection reaches
 * everything inside it.
 */
export type CollectionNode = Pick<Collection, 'id' | 'parentId' | 'defaultLevel' | 'deletedAt' | 'organizationId'> & { viewerGrants: Role[] };

/** Everything an access check needs of one organization: the row, the viewer's membership, the collection tree. */
export interface OrganizationAccessRecord {
  organization: Organization;
  membership: Member | null;
  collections: Map<string, CollectionNode>;
}

/**
 * Per-request batching: the one cache of a request (DataLoader; plugin-prisma's `queryFromInfo` folds
 * the relations of a list into its page query). Resolvers of a list ask for "the viewer's membership in
 * org X" or "the grants on space Y" once per item; a loader turns those into one query per request.
 *
 * Access checks cost one statement: `organizationAccess` reads an organization with the viewer's
 * membership and its collection tree in one query (`organization`, `viewerMembership` and
 * `organizationCollections` are views of it), and `space` / `collection` read the record together with
 * all of that (and the viewer's grants on a space) in one query, priming the other loaders.
 */
export interface Loaders {
  organizationAccess: SettlingLoader<string, OrganizationAccessRecord | null>;
  organization: DataLoader<string, Organization | null>;
  viewerMembership: DataLoader<string, Member | null>;
  space: DataLoader<string, Space | null>;
  collection: DataLoader<string, Collection | null>;
  /** All collections of an organization (deleted ones included), by ID. */
  organizationCollections: DataLoader<string, Map<string, CollectionNode>>;
  /** Levels granted to the viewer on a space, directly or through teams. */
  viewerSpaceGrants: SettlingLoader<string, Role[]>;
  /** Per-request loaders of other modules, by name (one cache per request, see `keyedLoader`). */
  named: Map<string, DataLoader<any, any>>;
}

export const COLLECTION_NODE_SELECT = { id: true, parentId: true, defaultLevel: true, deletedAt: true, organizationId: true } as const;

/** The Prisma `select` of the viewer's grants on a space (direct and through teams), for page queries. */
export function viewerGrantsSelect(userId: string) {
  return {
    userGrants: { where: { userId }, select: { role: true } },
    teamGrants: { where: { team: { members: { some: { userId } } } }, select: { role: true } },
  } as const;
}

type WithGrants = { userGrants?: { role: Role }[]; teamGrants?: { role: Role }[] };
/** The roles of a row's grants (a plain loop: list answers call this once per item, mostly with none). */
function grantRoles(row: WithGrants): Role[] {
  const roles: Role[] = [];
  for (const grant of row.userGrants ?? []) roles.push(grant.role);
  for (const grant of row.teamGrants ?? []) roles.push(grant.role);
  return roles;
}

/**
 * A DataLoader that also remembers the values it has settled, so a resolver that runs once per list
 * item can read them without awaiting (`peek`). A field that returns a promise makes graphql-js
 * complete every item of the list asynchronously, which costs more than the field itself.
 */
export class SettlingLoader<K, V> extends DataLoader<K, V> {
  private readonly settled = new Map<K, V>();

  override load(key: K): Promise<V> {
    const value = super.load(key);
    if (!this.settled.has(key)) value.then((v) => this.settled.set(key, v), () => undefined);
    return value;
  }

  override prime(key: K, value: V | PromiseLike<V> | Error): this {
    if (!(value instanceof Error) && !(typeof (value as PromiseLike<V>)?.then === 'function')) this.settled.set(key, value as V);
    return super.prime(key, value);
  }

  /** The value already loaded (or primed) for `key`; undefined while it is not. */
  peek(key: K): V | undefined {
    return this.settled.get(key);
  }
}

function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

/** A per-request loader owned by another module, created on first use (e.g. relation pages, SAML). */
export function keyedLoader<K, V>(ctx: { loaders: Loaders }, name: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
  let loader = ctx.loaders.named.get(name);
  if (!loader) ctx.loaders.named.set(name, (loader = create()));
  return loader;
}

type CollectionRow = Omit<CollectionNode, 'viewerGrants'> & WithGrants;
type OrganizationAccessRow = Organization & { members: Member[]; collections: CollectionRow[] };

/**
 * The relations that read, with an organization (in one statement: joins), what its access record holds:
 * the viewer's membership and the collection tree with the viewer's grants on each collection. Another
 * record read with its `organization: { include: … }` primes `organizationAccess` (`primeOrganizationAccess`).
 */
export function organizationAccessInclude(viewer: Viewer | null) {
  const viewerId = viewer?.user.id ?? '';
  return {
    members: { where: { userId: viewerId } },
    collections: { select: { ...COLLECTION_NODE_SELECT, ...viewerGrantsSelect(viewerId) } },
  };
}

// Every per-organization permission starts from the membership; a scoped token has none outside its
// organization, so it is an outsider there without each service having to know about scopes.
function toAccess(viewer: Viewer | null, row: OrganizationAccessRow): OrganizationAccessRecord {
  const { members, collections, ...organization } = row;
  const mayAct = viewerMayActIn(viewer, row.id);
  return {
    organization,
    membership: mayAct ? (members[0] ?? null) : null,
    collections: new Map(
      collections.map(({ userGrants, teamGrants, ...c }) => [c.id, { ...c, viewerGrants: mayAct ? grantRoles({ userGrants, teamGrants }) : [] }]),
    ),
  };
}

/** Records an organization read with `organizationAccessInclude` as the request's access record for it. */
export function primeOrganizationAccess(ctx: { loaders: Loaders; viewer: Viewer | null }, row: unknown): void {
  ctx.loaders.organizationAccess.prime((row as OrganizationAccessRow).id, toAccess(ctx.viewer, row as OrganizationAccessRow));
}

/** The loaders of one request: they read through `db` on behalf of `viewer`. */
export function createLoaders(ctx: { db: Db; viewer: Viewer | null }): Loaders {
  const viewerId = () => ctx.viewer?.user.id ?? '';
  // The collection tree comes with the viewer's grants on each collection (joined: no statement of their own).
  const accessInclude = () => organizationAccessInclude(ctx.viewer);
  const primeAccess = (row: OrganizationAccessRow) => loaders.organizationAccess.prime(row.id, toAccess(ctx.viewer, row));
  const view = <V>(pick: (a: OrganizationAccessRecord | null) => V) =>
    new DataLoader<string, V>(async (ids) => (await loaders.organizationAccess.loadMany(ids)).map((a) => pick(a instanceof Error ? null : a)));

  const loaders: Loaders = {
    organizationAccess: new SettlingLoader(async (ids) => {
      const rows = await ctx.db.organization.findMany({
        relationLoadStrategy: 'join',
        where: { id: { in: [...ids] } },
        include: accessInclude(),
      });
      return byKey(ids, rows.map((row) => toAccess(ctx.viewer, row)), (a) => a.organization.id);
    }),
    organization: view((a) => a?.organization ?? null),
    viewerMembership: view((a) => a?.membership ?? null),
    organizationCollections: view((a) => a?.collections ?? new Map()),
    space: new DataLoader(async (ids) => {
      const rows = await ctx.db.space.findMany({
        relationLoadStrategy: 'join',
        where: { id: { in: [...ids] } },
        include: { ...viewerGrantsSelect(viewerId()), organization: { include: accessInclude() } },
      });
      return byKey(
        ids,
        rows.map(({ userGrants, teamGrants, organization, ...space }) => {
          primeAccess(organization);
          loaders.viewerSpaceGrants.prime(space.id, grantRoles({ userGrants, teamGrants }));
          return space;
        }),
        (r) => r.id,
      );
    }),
    collection: new DataLoader(async (ids) => {
      const rows = await ctx.db.collection.findMany({
        relationLoadStrategy: 'join',
        where: { id: { in: [...ids] } },
        include: { organization: { include: accessInclude() } },
      });
      return byKey(
        ids,
        rows.map(({ organization, ...collection }) => {
          primeAccess(organization);
          return collection;
        }),
        (r) => r.id,
      );
    }),
    viewerSpaceGrants: new SettlingLoader(async (spaceIds) => {
      const rows = await ctx.db.space.findMany({
        relationLoadStrategy: 'join',
        where: { id: { in: [...spaceIds] } },
        select: { id: true, ...viewerGrantsSelect(viewerId()) },
      });
      const byId = new Map(rows.map((r) => [r.id, grantRoles(r)]));
      return spaceIds.map((id) => byId.get(id) ?? []);
    }),
    named: new Map(),
  };
  return loaders;
}

/** Records the viewer's grants read with a page of spaces (see `viewerGrantsSelect`), and strips them from the rows. */
export function primeSpaceGrants<T extends { id: string } & WithGrants>(ctx: { loaders: Loaders }, rows: T[]): Omit<T, 'userGrants' | 'teamGrants'>[] {
  return rows.map(({ userGrants, teamGrants, ...row }) => {
    ctx.loaders.viewerSpaceGrants.prime(row.id, grantRoles({ userGrants, teamGrants }));
    return row;
  });
}
