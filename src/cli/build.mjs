// `npm run build` (and `npm ci`'s postinstall): compiles src/ to dist/ with TypeScript, then stamps dist/
// with the sources it was built from, so `npm start` (start.mjs) starts from dist/ at once when it is
// current and rebuilds only when a source changed.
//
// Plain JavaScript on purpose: it runs before any TypeScript is compiled, and the server process
// should not load a TypeScript transpiler (tsx) to find out that it needs none.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp.json');
/** What dist/ is built from besides src/: the compiler settings and the dependencies' versions. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

/**
 * The newest modification time among the build's inputs, directories included: a file added, renamed
 * or deleted changes its directory's time, an edit the file's own (git checkout and editors both do).
 */
export function newestSourceTime(root = ROOT) {
  let newest = 0;
  const visit = (entry) => {
    const stat = statSync(entry, { throwIfNoEntry: false });
    if (!stat) return;
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(path.join(root, 'src'));
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return newest;
}

/** Whether dist/ was built from the sources as they are now (its stamp matches them). */
export function distIsCurrent(root = ROOT) {
  try {
    const stamp = JSON.parse(readFileSync(path.join(root, 'dist', '.build-stamp.json'), 'utf8'));
    return stamp.newestSourceTime === newestSourceTime(root) && statSync(path.join(root, 'dist', 'server.js')).isFile();
  } catch {
    return false;
  }
}

/**
 * Compiles src/ into a clean dist/ (a file deleted from src/ must not survive in dist/) and stamps it.
 * Progress goes to stderr: stdout stays the server's (one JSON line per request).
 */
export function build() {
  const sourceTime = newestSourceTime();
  const started = Date.now();
  process.stderr.write('Compiling src/ to dist/ (once after install or a change of the sources) …\n');
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`TypeScript could not compile src/ (exit ${result.status ?? result.signal})`);
  writeFileSync(STAMP, `${JSON.stringify({ newestSourceTime: sourceTime, builtAt: new Date().toISOString() })}\n`);
  process.stderr.write(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
