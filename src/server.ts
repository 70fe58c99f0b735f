import { createServer } from 'node:http';
import { createApp } from './app.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { PUBLIC_URL_SETTING, recordInstanceSetting } from './db/instance-settings.ts';
import { systemClock } from './lib/clock.ts';
import { startIdleCollector } from './lib/idle-gc.ts';
import { createLogger } from './lib/logger.ts';
import { tuneRuntimeForServer } from './lib/runtime-tuning.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { scheduleRecurringJobs } from './jobs/recurring.ts';
import { jobHandlers } from './schema.ts';

/** How long the server must be idle after handling requests before it collects garbage. */
const IDLE_GC_MS = 5000;

/** Process entry point: configuration, database, migrations, HTTP listener, graceful shutdown. */
async function main() {
  const config = loadConfig();
  tuneRuntimeForServer({ embeddedDatabase: !config.databaseUrl });
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, preparedStatements: config.databasePreparedStatements });
  const applied = await database.migrate();
  logger.info({ database: database.kind, migrationsApplied: applied }, 'database ready');
  // The offline admin CLI prints URLs from it when run without this server's PORT / PUBLIC_URL.
  await recordInstanceSetting(database.prisma, PUBLIC_URL_SETTING, config.publicUrl);

  const app = createApp({ database, config, logger });
  if (app.rateLimitStore) logger.info({ store: app.rateLimitStore, ...config.rateLimit }, 'rate limiting on');
  else logger.warn('rate limiting off (RATE_LIMIT=false)');
  // Background work (src/jobs/): this instance runs its share of the jobs every instance shares.
  await scheduleRecurringJobs(database.prisma, systemClock.now());
  const jobRunner = new JobRunner({ db: database.prisma, config, clock: systemClock, logger, handlers: jobHandlers, leaseMs: config.jobLeaseMs }).start();
  // Published pages from memory need the change notifications: followed for the server's lifetime.
  const stopFollowing = app.followPublishedChanges();
  const server = createServer(app.handleNodeRequest);
  answerClientErrors(server);
  // Between bursts of traffic, give the memory back (see idle-gc.ts; active under `node --expose-gc`).
  const idleCollector = startIdleCollector({
    idleMs: IDLE_GC_MS,
    onCollect: (durationMs) => logger.debug({ durationMs: Math.round(durationMs) }, 'idle garbage collection'),
  });
  server.on('request', () => idleCollector.touch());
  server.listen(config.port, config.host, () => {
    logger.info({ port: config.port, graphql: `${config.publicUrl}/graphql`, rest: config.apiUrl }, 'listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // close() stops accepting and resolves once every in-flight request has been answered.
    server.close(async () => {
      await jobRunner.stop();
      await stopFollowing();
      idleCollector.stop();
      await app.close();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    });
    // Keep-alive connections idle between requests would hold close() open until they time out:
    // close each one as soon as its in-flight request is answered.
    setInterval(() => server.closeIdleConnections(), 50).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
