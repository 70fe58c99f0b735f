import type { Member, Prisma, Role, Site, User } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { ADMIN_ROLES, isStronger, levelsAbove } from '../organizations/index.ts';
import { siteForGrants } from './site-permissions.service.ts';

/**
 * Where a member's level on a site comes from (GitBook's UserSitePermissionOrigin): the organization (its
 * admins), or the site — `member` for its creator and a grant to them, `team` for a team's grant (with the
 * team), `default` for the `read` every member with a role holds.
 */
export type SitePermissionOrigin =
  | { type: 'organization'; organization: string }
  | { type: 'site'; site: string; reason: 'member' | 'team' | 'default'; team?: string };

export interface SitePermission {
  permission: Role;
  user: User;
  origin: SitePermissionOrigin;
  disabled: boolean;
  lastSeenAt: Date | null;
}

/**
 * A member's effective level on a site and its origin: the strongest of the sources `siteLevel` knows
 * (site.policy.ts), the first of equals in this order: organization admin, creator, own grant, team
 * grants, the default for members with a role. Null: no access.
 */
export function sitePermissionOf(
  member: Pick<Member, 'role' | 'userId' | 'organizationId'>,
  site: Pick<Site, 'id' | 'createdById'>,
  grants: { user: Role | null; teams: { id: string; level: Role }[] },
): { permission: Role; origin: SitePermissionOrigin } | null {
  const candidates: { level: Role; origin: SitePermissionOrigin }[] = [];
  if (member.role && ADMIN_ROLES.includes(member.role)) candidates.push({ level: 'admin', origin: { type: 'organization', organization: member.organizationId } });
  if (site.createdById !== null && site.createdById === member.userId) candidates.push({ level: 'admin', origin: { type: 'site', site: site.id, reason: 'member' } });
  if (grants.user) candidates.push({ level: grants.user, origin: { type: 'site', site: site.id, reason: 'member' } });
  for (const t of grants.teams) candidates.push({ level: t.level, origin: { type: 'site', site: site.id, reason: 'team', team: t.id } });
  if (member.role) candidates.push({ level: 'read', origin: { type: 'site', site: site.id, reason: 'default' } });
  let best: (typeof candidates)[number] | null = null;
  for (const c of candidates) if (!best || isStronger(c.level, best.level)) best = c;
  return best && { permission: best.level, origin: best.origin };
}

export type SitePermissionSort = 'joinedAt' | 'lastSeenAt' | 'name';

export interface SitePermissionsFilter extends ListArgs {
  role?: Role | 'guest' | null;
  search?: string | null;
  sort?: SitePermissionSort | null;
  order?: 'asc' | 'desc' | null;
  team?: string | null;
}

/**
 * `listPermissionsAggregateInSite`: everyone who can access the site — enabled members with a role, and
 * guests with a grant to them or one of their teams — with their effective level and its origin.
 * `role` keeps those whose effective level is exactly it (`guest`: the guests among them), `search`
 * matches names and e-mails, `team` keeps a team's members; sorted by `sort` (joinedAt, lastSeenAt —
 * those seen at least once — or name) in `order` (default desc). Two statements after the access check:
 * the page (members with their user, their grant and their teams' grants on the site) and the count; the
 * level filter is spelled in SQL from the same rule.
 */
export async function listSitePermissionsAggregate(ctx: Context, organizationId: string, siteId: string, args: SitePermissionsFilter) {
  checkLength('search', args.search, 0, 512);
  const site = await siteForGrants(ctx, organizationId, siteId, 'listPermissions');
  const granted = { siteId: site.id };
  const teamGranted = (grant: Prisma.SiteTeamGrantWhereInput) => ({ team: { siteGrants: { some: { ...granted, ...grant } } } });
  const creator = site.createdById ?? '';
  const and: Prisma.MemberWhereInput[] = [
    { OR: [{ role: { not: null } }, { siteGrants: { some: granted } }, { teams: { some: teamGranted({}) } }] },
  ];
  if (args.role === 'guest') and.push({ role: null });
  else if (args.role === 'admin') {
    and.push({ OR: [{ role: { in: [...ADMIN_ROLES] } }, { userId: creator }, { siteGrants: { some: { ...granted, role: 'admin' } } }, { teams: { some: teamGranted({ role: 'admin' }) } }] });
  } else if (args.role) {
    const above = levelsAbove(args.role);
    const exactly: Prisma.MemberWhereInput[] = [{ siteGrants: { some: { ...granted, role: args.role } } }, { teams: { some: teamGranted({ role: args.role }) } }];
    if (args.role === 'read') exactly.push({ role: { not: null } });
    and.push(
      // Nothing stronger: not an admin of the organization nor the creator, no stronger grant or team grant …
      { OR: [{ role: null }, { role: { notIn: [...ADMIN_ROLES] } }] },
      { NOT: { userId: creator } },
      { siteGrants: { none: { ...granted, role: { in: above } } } },
      { teams: { none: teamGranted({ role: { in: above } }) } },
      // … and something exactly as strong.
      { OR: exactly },
    );
  }
  const search = args.search?.trim();
  if (search) and.push({ user: { OR: [{ displayName: { contains: search, mode: 'insensitive' } }, { email: { contains: search, mode: 'insensitive' } }] } });
  if (args.team) and.push({ teams: { some: { teamId: args.team } } });
  if (args.sort === 'lastSeenAt') and.push({ lastSeenAt: { not: null } });
  const where: Prisma.MemberWhereInput = { organizationId: site.organizationId, disabled: false, AND: and };
  const direction = args.order ?? 'desc';
  const byName = args.sort === 'name';
  const keys: SortKey[] = [
    byName ? { field: 'name', direction } : { field: args.sort ?? 'joinedAt', direction, type: 'date' },
    { field: 'userId', direction },
  ];
  const page = await paginate({
    args,
    keys,
    where: where as Record<string, unknown>,
    findMany: async (q) => {
      const rows = await ctx.db.member.findMany({
        relationLoadStrategy: 'join',
        ...((byName ? nameKeyed(q) : q) as object),
        include: {
          user: true,
          siteGrants: { where: granted, select: { role: true } },
          teams: { where: teamGranted({}), select: { team: { select: { id: true, siteGrants: { where: granted, select: { role: true } } } } } },
        },
      });
      // The name key's value, for the next page's cursor.
      return rows.map((row) => ({ ...row, name: row.user.displayName }));
    },
    count: (q) => ctx.db.member.count(q as Prisma.MemberCountArgs),
  });
  return {
    ...page,
    items: page.items.flatMap(({ user, siteGrants, teams, ...member }): SitePermission[] => {
      const found = sitePermissionOf(member, site, {
        user: siteGrants[0]?.role ?? null,
        teams: teams.flatMap((t) => t.team.siteGrants.map((g) => ({ id: t.team.id, level: g.role }))),
      });
      return found ? [{ ...found, user, disabled: member.disabled, lastSeenAt: member.lastSeenAt }] : [];
    }),
  };
}

/**
 * A page query over members keyed by `name` (the user's display name): the key becomes the user's
 * `displayName`, in the order and in the cursor's "after" filter alike.
 */
function nameKeyed(q: { where: Record<string, unknown>; orderBy: Record<string, 'asc' | 'desc'>[]; take: number }) {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (!value || typeof value !== 'object' || value instanceof Date) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'name') out.user = { displayName: v };
      else out[k] = rename(v);
    }
    return out;
  };
  // Only the cursor's clause (`{ AND: [filter, after] }`, from a `page`) names the key; the filter never does.
  const paged = Object.keys(q.where).length === 1 && Array.isArray(q.where.AND) && q.where.AND.length === 2;
  const where = paged ? { AND: [(q.where.AND as unknown[])[0], rename((q.where.AND as unknown[])[1])] } : q.where;
  return { ...q, where, orderBy: q.orderBy.map((o) => ('name' in o ? { user: { displayName: o.name } } : o)) };
}
