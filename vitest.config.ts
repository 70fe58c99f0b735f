import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) builds. Node resolves dependencies (Pothos, SOFA,
    // graphql-tools) to the CJS one, Vite would give our sources the ESM one: two "realms" whose types
    // fail graphql's instanceof checks. Pin our sources to the build Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own app on its own database; PGlite needs a moment to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
