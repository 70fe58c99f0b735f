import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createUserWithToken, userJson } from '../modules/users/index.ts';

/**
 * Instance administration without the HTTP server:
 *   npm run admin -- create-user --email ada@example.com --name "Ada Lovelace"
 * prints { "user": …, "token": … } as JSON. Works on DATABASE_URL at any time, and on the embedded
 * database while the server is stopped (PGlite allows one process per data directory).
 */
const USAGE = 'Usage: npm run admin -- create-user --email <email> --name <display name>';

function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: { email: { type: 'string' }, name: { type: 'string' } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const { positionals, values } = parseCommandLine();

if (positionals[0] !== 'create-user' || !values.email || !values.name) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, preparedStatements: config.databasePreparedStatements });
try {
  await database.migrate();
  const { user, token } = await createUserWithToken(database.prisma, { email: values.email, displayName: values.name });
  // The user as GitBook's User JSON, as `GET /v1/user` answers it (the users module's presenter).
  console.log(JSON.stringify({ user: userJson(user, config.apiUrl), token }, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
