import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import { withDatabaseConflicts } from './database-conflicts.ts';
import './scalars.ts';
import '../modules/users/user.schema.ts';
import '../modules/organizations/organization.schema.ts';
import '../modules/members/member.schema.ts';
import '../modules/teams/team.schema.ts';
import '../modules/spaces/space.schema.ts';
import '../modules/collections/collection.schema.ts';
import '../modules/invites/invite.schema.ts';
import '../modules/organizations/organization.graph.ts';
import { customFieldRoutes } from '../modules/custom-fields/custom-field.schema.ts';
import { samlProviderRoutes } from '../modules/sso/saml-provider.schema.ts';
import { userRoutes } from '../modules/users/user.rest.ts';
import { organizationRoutes } from '../modules/organizations/organization.rest.ts';
import { memberRoutes } from '../modules/members/member.rest.ts';
import { teamRoutes } from '../modules/teams/team.rest.ts';
import { spaceRoutes } from '../modules/spaces/space.rest.ts';
import { collectionRoutes } from '../modules/collections/collection.rest.ts';
import { inviteRoutes } from '../modules/invites/invite.rest.ts';
import type { RouteTable } from '../rest/route-table.ts';

/**
 * The whole schema: every domain module registers its types and root fields on the builder. Database
 * conflicts in any root field answer 409 (or are retried), see database-conflicts.ts.
 */
export const schema = withDatabaseConflicts(builder.toSchema({ sortSchema: true }));

/** Every REST route, from the modules' route tables. */
export const restRoutes: RouteTable = { ...userRoutes, ...organizationRoutes, ...memberRoutes, ...teamRoutes, ...spaceRoutes, ...collectionRoutes, ...inviteRoutes, ...customFieldRoutes, ...samlProviderRoutes };

/** The committed schema.graphql: generated, sorted. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
