import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { PUBLIC_URL_SETTING, readInstanceSetting } from '../db/instance-settings.ts';
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
  // The URLs the server answers: this command's PUBLIC_URL / PORT when given, else the ones the server
  // last started with (it records them), so a server started with PORT=5000 is not printed as :4000.
  const ownSettings = process.env.PUBLIC_URL || process.env.PORT;
  const recorded = ownSettings ? null : await readInstanceSetting(database.prisma, PUBLIC_URL_SETTING);
  const apiUrl = recorded ? `${recorded}/v1` : config.apiUrl;
  // The user as GitBook's User JSON, as `GET /v1/user` answers it (the users module's presenter).
  console.log(JSON.stringify({ user: userJson(user, apiUrl), token }, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
