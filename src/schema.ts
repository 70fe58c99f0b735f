import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './graphql/builder.ts';
import { withDatabaseConflicts } from './graphql/database-conflicts.ts';
import { withDeclaredConstraints } from './graphql/declared-constraints.ts';
import { withStablePaths } from './graphql/stable-paths.ts';
import { visitorSchemaOf } from './graphql/visitor-projection.ts';
import './graphql/scalars.ts';
import type { JobHandler } from './jobs/job-runner.ts';
import type { AppServices } from './core/context.ts';
import { subscribeToDomainEvents } from './core/domain-events.ts';
import { registerComputedContent } from './modules/content/index.ts';
import type { HttpRoute } from './http/request-state.ts';
import type { DomainModule } from './modules/domain-module.ts';
import type { RouteTable } from './rest/route-table.ts';
import { changeRequestsModule } from './modules/change-requests/index.ts';
import { collectionsModule } from './modules/collections/index.ts';
import { commentsModule } from './modules/comments/index.ts';
import { contentModule } from './modules/content/index.ts';
import { customFieldsModule } from './modules/custom-fields/index.ts';
import { importsModule } from './modules/imports/index.ts';
import { gitSyncModule } from './modules/git-sync/index.ts';
import { integrationsModule } from './modules/integrations/index.ts';
import { invitesModule } from './modules/invites/index.ts';
import { membersModule } from './modules/members/index.ts';
import { openApiSpecsModule } from './modules/openapi-specs/index.ts';
import { organizationsModule } from './modules/organizations/index.ts';
import { searchModule } from './modules/search/index.ts';
import { sitesModule, VISITOR_PROJECTION } from './modules/sites/index.ts';
import { publishedModule } from './modules/published/index.ts';
import { readerModule } from './modules/reader/index.ts';
import { appUrlsModule } from './modules/app-urls/index.ts';
import { spacesModule } from './modules/spaces/index.ts';
import { ssoModule } from './modules/sso/index.ts';
import { teamsModule } from './modules/teams/index.ts';
import { translationsModule } from './modules/translations/index.ts';
import { usersModule } from './modules/users/index.ts';

/**
 * The domain modules. Importing one registers its types and root fields on the builder (Pothos
 * resolves references when the schema is built, so the order here does not matter).
 */
const modules: DomainModule[] = [
  usersModule,
  organizationsModule,
  membersModule,
  teamsModule,
  invitesModule,
  spacesModule,
  contentModule,
  changeRequestsModule,
  commentsModule,
  searchModule,
  importsModule,
  gitSyncModule,
  sitesModule,
  publishedModule,
  readerModule,
  appUrlsModule,
  translationsModule,
  openApiSpecsModule,
  integrationsModule,
  collectionsModule,
  customFieldsModule,
  ssoModule,
];

/**
 * The whole schema. Root fields check the constraints declared on their arguments first (the ones the
 * OpenAPI document states), see declared-constraints.ts; database conflicts in any root field answer 409
 * (or are retried), see database-conflicts.ts; resolvers see response paths as graphql-js builds them,
 * see stable-paths.ts.
 */
export const schema = withDatabaseConflicts(withStablePaths(withDeclaredConstraints(builder.toSchema({ sortSchema: true }))));

/** The schema a published site's visitors' operations run on: theirs answers some fields their way (visitor-projection.ts). */
export const visitorSchema = visitorSchemaOf(schema, VISITOR_PROJECTION);

// Each module's handlers of other modules' events (core/domain-events.ts), once.
for (const module of modules) if (module.events) subscribeToDomainEvents(module.events);
// How computed pages are rendered, by the type of their source (content/computed-sources.ts).
for (const module of modules) for (const [type, render] of Object.entries(module.computedContent ?? {})) registerComputedContent(type, render);

/** Every REST route, from the modules' route tables. */
export const restRoutes: RouteTable = Object.assign({}, ...modules.map((m) => m.routes));

/** Every module's HTTP routes (SAML sign-in, signed downloads, PDF exports), made with the app's services. */
export const moduleHttpRoutes = (services: AppServices): HttpRoute[] => modules.flatMap((m) => m.httpRoutes?.(services) ?? []);

/** Every background job handler, by kind, from the modules (run by src/jobs/job-runner.ts). */
export const jobHandlers: Record<string, JobHandler> = Object.assign({}, ...modules.map((m) => m.jobs ?? {}));

/** The committed schema.graphql: generated, sorted. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
