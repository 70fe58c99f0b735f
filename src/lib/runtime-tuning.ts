import v8 from 'node:v8';

/**
 * V8 settings for a long-running server, set before anything is compiled or allocated in bulk (the
 * first thing `server.ts` does). Measured with `npm run bench` (docs/development.md, "Performance"):
 *
 * - The JavaScript heap grows by at most 30 % over what survived the last full collection
 *   (`--heap-growing-percent`), instead of V8's default of up to 4×: under load the heap then holds a
 *   few requests' worth of garbage, not hundreds of MB of it. A soft bound, unlike
 *   `--max-old-space-size`: a burst of the largest queries the limits allow still gets the memory it
 *   needs rather than aborting the process. Costs a few % of throughput in more frequent collections.
 * - On PostgreSQL, WebAssembly is compiled by the baseline compiler only (`--liftoff-only`). The only
 *   WebAssembly there is Prisma's query compiler, which runs once per query shape (its plans are
 *   cached), so the optimizing tier's ~45 MiB of machine code and compile buffers bought nothing. On
 *   embedded PGlite the database itself is WebAssembly and needs the optimizing tier: left as is.
 */
export function tuneRuntimeForServer(options: { embeddedDatabase: boolean }): void {
  v8.setFlagsFromString('--heap-growing-percent=30');
  if (!options.embeddedDatabase) v8.setFlagsFromString('--liftoff-only');
}
