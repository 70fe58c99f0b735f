import type { Context } from '../../graphql/context.ts';
import { loadRelationPage } from '../../graphql/relation-page.ts';
import type { ListArgs } from '../../lib/pagination.ts';
import { TEAM_MEMBER_SORT, TEAM_SORT, teamListWhere } from './team.service.ts';

/** `Team.memberships`: the caller already reached the team, so its organization membership is checked. */
export function loadTeamMembersPage(ctx: Context, teamId: string, args: ListArgs) {
  return loadRelationPage(
    ctx,
    { name: 'Team.memberships', parentModel: 'team', relation: 'members', keys: () => TEAM_MEMBER_SORT, where: () => ({}) },
    teamId,
    args,
  );
}

/** `Organization.teams`: same filters and order as `GET /orgs/{o}/teams`. */
export function loadOrganizationTeamsPage(
  ctx: Context,
  organizationId: string,
  args: ListArgs & { title?: string | null; owner?: string | null },
) {
  return loadRelationPage(
    ctx,
    {
      name: 'Organization.teams',
      parentModel: 'organization',
      relation: 'teams',
      keys: () => TEAM_SORT,
      where: (a) => {
        const { organizationId: _, ...where } = teamListWhere(organizationId, a);
        return where;
      },
    },
    organizationId,
    args,
  );
}
