import { builder } from '../../graphql/builder.ts';
import { graphOnly } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import { organizationPage, withoutOrganization } from '../organizations/index.ts';
import { teamListArgs, TeamList } from './team.schema.ts';
import { TEAM_SORT, teamListWhere, type TeamListFilter } from './team.service.ts';

/** `Organization.teams` (GraphQL only): the teams list, reached from its organization. */
builder.prismaObjectFields(OrganizationRef, (t) => ({
  teams: t.field({
    type: TeamList,
    description: 'Teams of the organization (same arguments as the teams list)',
    args: teamListArgs,
    extensions: graphOnly,
    resolve: (org, args, ctx, info) =>
      organizationPage<TeamListFilter>(
        ctx,
        info,
        org.id,
        { name: 'Organization.teams', relation: 'teams', keys: () => TEAM_SORT, where: (a) => withoutOrganization(teamListWhere(org.id, a)) },
        args,
        'listTeams',
      ),
  }),
}));
