import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * Every embedded database (server, tests, migration tooling) loads the same PostgreSQL extensions a real
 * server provides, so one set of migrations works on both: pg_trgm backs the case-insensitive
 * "contains" searches (member search, team title filter) with trigram indexes.
 */
export function createPglite(dataDir = 'memory://'): Promise<PGlite> {
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}
