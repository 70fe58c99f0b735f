import type { AppServices } from '../core/context.ts';
import type { DomainEventHandlers } from '../core/domain-events.ts';
import type { HttpRoute } from '../http/request-state.ts';
import type { JobHandler } from '../jobs/job-runner.ts';
import type { RouteTable } from '../rest/route-table.ts';
import type { Db } from '../db/client.ts';

/**
 * What a domain module gives the app. Importing its `index.ts` registers its types and root fields on
 * the builder; `routes` is its REST route table (`<thing>.rest.ts`); `httpRoutes` the endpoints it
 * serves that are no root field (`<thing>.http.ts`: sign-in, downloads, exports), made with the app's
 * services; `jobs` the background work it hands the job runner (src/jobs/), by kind; `events` what it
 * does when another module publishes an event (core/domain-events.ts); `computedContent` how it renders
 * the computed pages made from its sources, by source type (content/computed-sources.ts).
 */
/**
 * How a module renders the computed pages made from its sources (`type: "computed"` pages: an OpenAPI
 * spec, say): markdown from the source. Declared here, below every module, so that content asks for it
 * (content/computed-sources.ts) without importing the module that renders it.
 */
export type ComputedContentRenderer = (db: Db, organizationId: string, source: unknown) => Promise<string>;

export interface DomainModule {
  name: string;
  routes: RouteTable;
  httpRoutes?: (services: AppServices) => HttpRoute[];
  jobs?: Record<string, JobHandler>;
  events?: DomainEventHandlers;
  computedContent?: Record<string, ComputedContentRenderer>;
}
