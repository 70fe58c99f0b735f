import { Prisma } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';
import { SEARCH_CONFIG } from './search-index.ts';

/**
 * A search query as PostgreSQL reads it: `websearch_to_tsquery` semantics (quoted phrases, `-word`
 * exclusion, `or`), with the last word also matching as a prefix while it is being typed ("kubern"
 * finds "kubernetes"). When that finds nothing, `withTypoAlternatives` lets the last word also match
 * the indexed words closest to it by trigram similarity ("kubernets" finds "kubernetes").
 */
export const MAX_QUERY_LENGTH = 512;

/** Below this, a word has too few trigrams for a similarity to mean anything. */
const MIN_TYPO_WORD = 4;
/** pg_trgm similarity a known word needs to stand in for a misspelt last word (measured: docs/api/search-and-import.md, "Search"). */
export const TYPO_SIMILARITY = 0.4;
const TYPO_ALTERNATIVES = 3;

export interface SearchQuery {
  text: string;
  /** The last word, lower-cased, when it is a plain word (not quoted, excluded or `or`): it matches as a prefix. */
  lastWord: string | null;
}

export function parseSearchQuery(query: string): SearchQuery {
  if (query.length < 1 || query.length > MAX_QUERY_LENGTH) {
    throw new BadRequestError(`Invalid "query": must be 1 to ${MAX_QUERY_LENGTH} characters (got ${query.length})`);
  }
  if (query.includes('\u0000')) throw new BadRequestError('Invalid "query": must not contain NUL characters');
  const text = query.trim();
  const quotes = (text.match(/"/g) ?? []).length;
  const last = text.split(/\s+/).pop() ?? '';
  const plain = quotes % 2 === 0 && !text.endsWith('"') && !last.startsWith('-') && last.toLowerCase() !== 'or' && /[\p{L}\p{N}]$/u.test(last);
  return { text, lastWord: plain ? last.toLowerCase() : null };
}

/** The tsquery of a search, as SQL: `websearch_to_tsquery`, its last lexeme made a prefix when allowed. */
export function tsquerySql(query: SearchQuery): Prisma.Sql {
  const websearch = Prisma.sql`websearch_to_tsquery(${SEARCH_CONFIG}::regconfig, ${query.text})`;
  if (!query.lastWord) return websearch;
  // The text form of a websearch query ends with its last lexeme, quoted ('kubern'): add `:*` to it.
  return Prisma.sql`regexp_replace(${websearch}::text, '(''(?:[^'']|'''')*'')$', '\\1:*')::tsquery`;
}

/** Whether a query that found nothing is worth retrying with typo alternatives for its last word. */
export const typoRetryable = (query: SearchQuery) => query.lastWord !== null && [...query.lastWord].length >= MIN_TYPO_WORD;

/**
 * The tsquery of a search whose last word may be misspelt: its last lexeme (a prefix) or any of the
 * indexed words most similar to it (pg_trgm, through SearchWord's trigram index).
 */
export function typoTsquerySql(query: SearchQuery): Prisma.Sql {
  const quoted = (value: Prisma.Sql) => Prisma.sql`'''' || replace(replace(${value}, '\\', '\\\\'), '''', '''''') || ''''`;
  return Prisma.sql`(
    SELECT CASE WHEN count(w."word") = 0 THEN ${tsquerySql(query)}
      ELSE regexp_replace(${tsquerySql(query)}::text, '(''(?:[^'']|'''')*'':\\*)$', '( \\1 | ' || string_agg(${quoted(Prisma.sql`w."word"`)}, ' | ') || ' )')::tsquery
    END
    FROM (
      SELECT "word" FROM "SearchWord"
      WHERE "word" % ${query.lastWord} AND similarity("word", ${query.lastWord}) >= ${TYPO_SIMILARITY}
      ORDER BY similarity("word", ${query.lastWord}) DESC, "word" LIMIT ${TYPO_ALTERNATIVES}
    ) w
  )`;
}
