// `npm start`: the server from dist/, compiled first only when the sources changed since the last build
// (build.mjs). This file runs in the server's own process — npm's script `exec`s node with the server's
// flags (SERVER_NODE_FLAGS) on it — so the process a user starts and signals is the server: SIGTERM or
// SIGINT (npm forwards both) drains in-flight requests and closes the database (src/server.ts).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, distIsCurrent, ROOT } from './build.mjs';

if (!distIsCurrent()) {
  try {
    build();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(path.join(ROOT, 'dist', 'server.js')).href);
