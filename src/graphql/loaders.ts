import DataLoader from 'dataloader';
import type { Member, Organization } from '../generated/prisma/client.ts';
import type { Context } from './context.ts';

/**
 * Per-request batching. Resolvers of a list ask for "the viewer's membership in org X" once per item;
 * DataLoader turns those into one `IN (...)` query per request.
 */
export interface Loaders {
  organization: DataLoader<string, Organization | null>;
  viewerMembership: DataLoader<string, Member | null>;
}

export function createLoaders(ctx: Context): Loaders {
  return {
    organization: new DataLoader(async (ids) => {
      const rows = await ctx.db.organization.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    viewerMembership: new DataLoader(async (organizationIds) => {
      if (!ctx.viewer) return organizationIds.map(() => null);
      const rows = await ctx.db.member.findMany({
        where: { userId: ctx.viewer.user.id, organizationId: { in: [...organizationIds] } },
      });
      const byOrg = new Map(rows.map((r) => [r.organizationId, r]));
      return organizationIds.map((id) => byOrg.get(id) ?? null);
    }),
  };
}
