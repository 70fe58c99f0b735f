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

/**
 * Flags the server's `node` is started with (`npm start`; the tests and benches that start the built
 * server take them from here; a test checks that `npm start` holds each). They cannot be set from code:
 * V8 sizes its heap before any JavaScript runs.
 *
 * - `--expose-gc`: the idle collector (idle-gc.ts) gives memory back between bursts.
 * - `--enable-source-maps`: stack traces in logs name the TypeScript lines.
 * - `--max-semi-space-size=4`: the young generation (where each request's short-lived objects live)
 *   grows to 8 MiB instead of V8's 32 MiB. Measured with `npm run bench:memory` on PostgreSQL (11,000
 *   hostile requests): RSS 15 s after the run 259 MiB, against 269–311 MiB over three runs without it;
 *   peak RSS of the list bench 237–256 MiB against 272–283, its throughput within the runs' spread.
 */
export const SERVER_NODE_FLAGS = ['--expose-gc', '--enable-source-maps', '--max-semi-space-size=4'] as const;

/**
 * Environment the server's process starts with (`npm start` sets it unless already set), read by the C
 * library before Node starts. `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates (libuv's
 * pool: hashing, compression, files) an arena of its own, up to 8 per core, and memory freed in one is
 * rarely given back; two arenas keep it together. Measured with `npm run bench:memory` (PostgreSQL,
 * with the young-generation bound): peak 300 MiB and 247 MiB 15 s after the run, against peaks of
 * 318–336 and 259–289 MiB after in three runs without it.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' } as const;
