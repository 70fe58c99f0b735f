import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { buildConfig, type Config, type ConfigInput } from '../../src/config.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createUserWithToken } from '../../src/modules/users/user.service.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { ADMIN_TOKEN, TestClock } from './harness.ts';

/**
 * The app on a real 127.0.0.1 listener for the official client (`GitBookAPI` builds its own URLs,
 * headers and JSON handling, so it must go over the wire). The listener starts first, so that
 * PUBLIC_URL matches its ephemeral port.
 */
export interface ClientServer {
  endpoint: string;
  config: Config;
  store: TestDatabase;
  app: App;
  clock: TestClock;
  /** A new user with a token, and the official client authenticated as them. */
  newUser(displayName: string): Promise<{ id: string; email: string; token: string; api: GitBookAPI }>;
}

/** `realClock`: the app uses the system clock (for tests comparing server times with Date.now()). */
export function useClientServer(options: { realClock?: boolean; config?: ConfigInput } = {}): ClientServer {
  const context = { clock: new TestClock() } as ClientServer;
  let server: Server;
  let counter = 0;
  beforeAll(async () => {
    context.store = await createTestDatabase();
    server = createServer((req, res) => context.app.yoga(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    context.endpoint = `http://127.0.0.1:${port}`;
    const config = buildConfig({ port, host: '127.0.0.1', publicUrl: context.endpoint, logLevel: 'silent', adminToken: ADMIN_TOKEN, ...options.config });
    context.config = config;
    context.app = createApp({ database: context.store.database, config, clock: options.realClock ? systemClock : context.clock });
    await context.app.ready();
  });
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await context.store?.close();
  });
  context.newUser = async (displayName) => {
    counter += 1;
    const email = `client.${counter}.${Date.now()}@example.com`;
    const { user, token } = await createUserWithToken(context.store.database.prisma, { email, displayName });
    return { id: user.id, email, token, api: new GitBookAPI({ endpoint: context.endpoint, authToken: token }) };
  };
  return context;
}

/** Expects `promise` to reject with the client's GitBookAPIError carrying `code`. */
export async function expectApiError(promise: Promise<unknown>, code: number): Promise<GitBookAPIError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected GitBookAPIError ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitBookAPIError);
  expect((error as GitBookAPIError).code).toBe(code);
  return error as GitBookAPIError;
}
