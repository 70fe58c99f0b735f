import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The Prisma CLI looks for its native schema engine before `generate` and tries to download it, which
// fails offline. Pointing it at a silent stub lets `prisma generate` run; migrations are created and
// applied by our own scripts (src/cli/create-migration.ts, src/db/migrate.ts) instead of the native engine.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(import.meta.dirname, 'prisma', 'schema-engine-stub.sh');
process.env.CHECKPOINT_DISABLE ??= '1';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
