import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import { UnauthenticatedError } from './errors.ts';
import { createLoaders, type Loaders } from './loaders.ts';
import type { Viewer } from './viewer.ts';

export { viewerMayActIn, type Viewer } from './viewer.ts';

/** Long-lived services shared by every request of one app instance. */
export interface AppServices {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
}

/** Per-request GraphQL context: the same for /graphql and /v1 (SOFA runs in Yoga's pipeline). */
export interface Context extends AppServices {
  viewer: Viewer | null;
  /** True only for the ADMIN_TOKEN bearer, which may call nothing but instance administration. */
  instanceAdmin: boolean;
  loaders: Loaders;
}

export function createContext(services: AppServices, viewer: Viewer | null, instanceAdmin = false): Context {
  const context = { ...services, viewer, instanceAdmin } as Context;
  context.loaders = createLoaders(context);
  return context;
}

/** The authenticated user. Requests without a valid token are refused before execution; this guards types. */
export function viewerOf(ctx: Context): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}
