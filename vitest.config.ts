import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * Tests that run the real entry points as child processes (the server, the CLIs): slow (each child boots
 * Node, tsx and a database), so they form their own project, `npm run test:e2e`. CI runs both projects.
 */
export const E2E_TESTS = ['test/platform/cli.test.ts', 'test/platform/server.test.ts', 'test/platform/crash.test.ts', 'test/integrations/gitbook-cli.test.ts', 'test/platform/browser.test.ts', 'test/reader/reader-browser.test.ts', 'test/reader/reader-visitors-browser.test.ts', 'test/git-sync/git-sync-crash.test.ts'];

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) builds. Node resolves dependencies (Pothos, SOFA,
    // graphql-tools) to the CJS one, Vite would give our sources the ESM one: two "realms" whose types
    // fail graphql's instanceof checks. Pin our sources to the build Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // Each file starts its own app on its own database; PGlite needs a moment to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // `npm test`: everything that runs inside the test process (the app through app.fetch, or on a
      // 127.0.0.1 listener of its own). Files share each worker's module cache (`isolate: false`):
      // every file builds its own app on its own database through createApp, and nothing of ours keeps
      // state at module level beyond the schema, so loading the schema and Prisma once per worker
      // instead of once per file halves the CPU time (measured: 4m40s → 2m05s of CPU).
      {
        extends: true,
        test: {
          name: 'in-process',
          isolate: false,
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: E2E_TESTS,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      // `npm run test:e2e`: the tests that spawn the server or a CLI.
      { extends: true, test: { name: 'e2e', include: E2E_TESTS } },
    ],
  },
});
