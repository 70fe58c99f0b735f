import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR. */
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, preparedStatements: config.databasePreparedStatements });
try {
  const applied = await database.migrate();
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
} finally {
  await database.close();
}
