import type { Context } from '../../core/context.ts';
import { loadRelationPage } from '../../graphql/relation-page.ts';
import type { ListArgs } from '../../core/pagination.ts';
import { TEAM_MEMBER_SORT } from './team.service.ts';

/** `Team.memberships`: the caller already reached the team, so its organization membership is checked. */
export function loadTeamMembersPage(ctx: Context, teamId: string, args: ListArgs, itemQuery: { include?: unknown; select?: unknown }) {
  return loadRelationPage(
    ctx,
    { name: 'Team.memberships', parentModel: 'team', relation: 'members', keys: () => TEAM_MEMBER_SORT, where: () => ({}) },
    teamId,
    args,
    itemQuery,
  );
}
