import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import { UnauthenticatedError } from './errors.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import type { SiteReader, Viewer } from './viewer.ts';

export { viewerMayActIn, type SiteReader, type Viewer } from './viewer.ts';

/** Long-lived services shared by every request of one app instance. */
export interface AppServices {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
}

/**
 * What a service that reads for a visitor rather than for a caller needs (the URL lookup, the reader's
 * pages): the database, the configuration and the clock — never a request's context.
 */
export type Services = Pick<AppServices, 'db' | 'config' | 'clock'>;

/** Which door an operation came through: the GraphQL endpoint, or a REST route run as its root field. */
export type OperationDoor = 'graphql' | 'rest';

/** Per-request GraphQL context: the same for /graphql and /v1 (SOFA runs in Yoga's pipeline). */
export interface Context extends AppServices {
  viewer: Viewer | null;
  /** True only for the ADMIN_TOKEN bearer, which may call nothing but instance administration. */
  instanceAdmin: boolean;
  door: OperationDoor;
  /** The holder of a published site's `apiToken` (no user): reads that site's published content only. */
  siteReader: SiteReader | null;
  /**
   * Set when the operation answers as a published site's visitor (graphql/visitor-projection.ts): a
   * site's apiToken, or the published-content roots anyone may call. Fields answer the visitor's view.
   */
  visitorView?: boolean;
  /**
   * The visitors an operation's published-content roots let in (`publishedPage`), by site: the claims
   * fields beneath them answer for (sites/site-readers.ts `readerOfSite`).
   */
  visitors?: Map<string, SiteReader>;
  loaders: Loaders;
}

export function createContext(
  services: AppServices,
  viewer: Viewer | null,
  instanceAdmin = false,
  door: OperationDoor = 'graphql',
  siteReader: SiteReader | null = null,
): Context {
  const context = { ...services, viewer, instanceAdmin, door, siteReader } as Context;
  context.loaders = createLoaders(context);
  return context;
}

/** The authenticated user. Requests without a valid token are refused before execution; this guards types. */
export function viewerOf(ctx: Context): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}
