import DataLoader from 'dataloader';
import type { Collection, Member, Organization, Role, Space } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { viewerMayActIn, type Viewer } from './viewer.ts';

/** What level computations need of an organization's collections: one row each, loaded once. */
export type CollectionNode = Pick<Collection, 'id' | 'parentId' | 'defaultLevel' | 'deletedAt' | 'organizationId'>;

/**
 * Per-request batching. Resolvers of a list ask for "the viewer's membership in org X" or "the grants
 * on space Y" once per item; DataLoader turns those into one `IN (...)` query per request.
 */
export interface Loaders {
  organization: DataLoader<string, Organization | null>;
  viewerMembership: DataLoader<string, Member | null>;
  space: DataLoader<string, Space | null>;
  collection: DataLoader<string, Collection | null>;
  /** All collections of an organization (deleted ones included), by ID. */
  organizationCollections: DataLoader<string, Map<string, CollectionNode>>;
  /** Levels granted to the viewer on a space, directly or through teams. */
  viewerSpaceGrants: DataLoader<string, Role[]>;
}

function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

/** The loaders of one request: they read through `db` on behalf of `viewer`. */
export function createLoaders(ctx: { db: Db; viewer: Viewer | null }): Loaders {
  const viewerId = () => ctx.viewer?.user.id ?? '';
  return {
    organization: new DataLoader(async (ids) =>
      byKey(ids, await ctx.db.organization.findMany({ where: { id: { in: [...ids] } } }), (r) => r.id),
    ),
    // Every per-organization permission starts from this membership; a scoped token has none outside
    // its organization, so it is an outsider there without each service having to know about scopes.
    viewerMembership: new DataLoader(async (organizationIds) => {
      const allowed = organizationIds.filter((id) => viewerMayActIn(ctx.viewer, id));
      if (!allowed.length) return organizationIds.map(() => null);
      const rows = await ctx.db.member.findMany({
        where: { userId: viewerId(), organizationId: { in: allowed } },
      });
      return byKey(organizationIds, rows, (r) => r.organizationId);
    }),
    space: new DataLoader(async (ids) => byKey(ids, await ctx.db.space.findMany({ where: { id: { in: [...ids] } } }), (r) => r.id)),
    collection: new DataLoader(async (ids) =>
      byKey(ids, await ctx.db.collection.findMany({ where: { id: { in: [...ids] } } }), (r) => r.id),
    ),
    organizationCollections: new DataLoader(async (organizationIds) => {
      const rows = await ctx.db.collection.findMany({
        where: { organizationId: { in: [...organizationIds] } },
        select: { id: true, parentId: true, defaultLevel: true, deletedAt: true, organizationId: true },
      });
      return organizationIds.map((o) => new Map(rows.filter((r) => r.organizationId === o).map((r) => [r.id, r])));
    }),
    viewerSpaceGrants: new DataLoader(async (spaceIds) => {
      const userId = viewerId();
      const [direct, viaTeams] = await Promise.all([
        ctx.db.spaceUserGrant.findMany({ where: { userId, spaceId: { in: [...spaceIds] } }, select: { spaceId: true, role: true } }),
        ctx.db.spaceTeamGrant.findMany({
          where: { spaceId: { in: [...spaceIds] }, team: { members: { some: { userId } } } },
          select: { spaceId: true, role: true },
        }),
      ]);
      return spaceIds.map((id) => [...direct, ...viaTeams].filter((g) => g.spaceId === id).map((g) => g.role));
    }),
  };
}
