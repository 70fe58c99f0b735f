// Runs once per `vitest run`, before any test file: one migrated PGlite data directory that every test
// file's database starts from (a copy of it), instead of each file booting an empty PGlite — initdb
// alone takes seconds in WASM — and applying every migration again.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite data directory to copy (PGlite runs only). */
    pgliteTemplate: string | null;
  }
}

/** tmpfs where there is one: the copies are written to throughout the run. */
export const SCRATCH = process.platform === 'linux' ? '/dev/shm' : os.tmpdir();

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', null);
    return;
  }
  const dir = mkdtempSync(path.join(SCRATCH, 'dp-template-'));
  const database = await openDatabase({ dataDir: dir });
  await database.migrate();
  await database.close();
  project.provide('pgliteTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
