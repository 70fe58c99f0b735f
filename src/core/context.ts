import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import type { User } from '../generated/prisma/client.ts';
import { UnauthenticatedError } from './errors.ts';
import { createLoaders, type Loaders } from './loaders.ts';

/** Long-lived services shared by every request of one app instance. */
export interface AppServices {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
}

export interface Viewer {
  user: User;
  tokenId: string;
  /**
   * The one organization a scoped token may act in (tokens issued by an organization's SAML sign-in),
   * or null for a personal token. Outside it the caller is an outsider: see `viewerMayActIn`.
   */
  scopeOrganizationId: string | null;
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

/**
 * Whether the caller's token may act in this organization at all. An organization's identity provider
 * vouches for a person only inside that organization, so a token from its SAML sign-in is worth
 * nothing anywhere else: there the caller is treated as a non-member.
 */
export function viewerMayActIn(viewer: Viewer | null, organizationId: string): boolean {
  return viewer !== null && (viewer.scopeOrganizationId === null || viewer.scopeOrganizationId === organizationId);
}

/** The authenticated user. Requests without a valid token are refused before execution; this guards types. */
export function viewerOf(ctx: Context): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}
