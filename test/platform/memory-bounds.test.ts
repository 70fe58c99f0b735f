import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { boundedParserCache } from '../../src/graphql/document-cache.ts';
import { preparedStatementNames } from '../../src/db/client.ts';
import { startIdleCollector } from '../../src/lib/idle-gc.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../src/lib/runtime-tuning.ts';
import { buildUser } from '../factories.ts';
import { BASE, useHarness } from '../support/harness.ts';
import { REPO_ROOT } from '../support/server-process.ts';

describe("Yoga's parse caches", () => {
  it('keep documents within their byte budget, however large and many the documents', () => {
    const { documentCache, errorCache } = boundedParserCache(4 * 1024 * 1024);
    for (let i = 0; i < 100; i++) {
      const text = `# ${i}\n${'#'.repeat(500_000)}\n{ user { id } }`;
      documentCache.set(text, { kind: 'Document', definitions: [] } as never);
      errorCache.set(text, new Error('x'));
    }
    expect(documentCache.calculatedSize).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(errorCache.calculatedSize).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(documentCache.size).toBeGreaterThan(0);
    expect(documentCache.size).toBeLessThan(10);
  });

  const h = useHarness();
  it('serve the app: a repeated document is answered from the cache, a padded one still works', async () => {
    const user = await buildUser(h);
    const ask = (query: string) =>
      h.app.fetch(`${BASE}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    // Comments are not tokens: a 900 KB document of comments passes the token limit (and is not cached).
    const padded = `${'#'.repeat(900_000)}\n{ user { id } }`;
    expect((await (await ask(padded)).json()).data.user.id).toBe(user.userId);
    expect((await (await ask(padded)).json()).data.user.id).toBe(user.userId);
  });
});

describe('the idle collector', () => {
  it('collects once the server has been idle for the delay after requests, then once more to give pages back', () => {
    vi.useFakeTimers();
    try {
      const gc = vi.fn();
      const collector = startIdleCollector({ idleMs: 5000, gc });
      vi.advanceTimersByTime(60_000);
      expect(gc).not.toHaveBeenCalled(); // no request, nothing to collect
      collector.touch();
      vi.advanceTimersByTime(4000);
      collector.touch(); // still busy: the delay starts again
      vi.advanceTimersByTime(4000);
      expect(gc).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1000);
      expect(gc).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1000);
      expect(gc).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(60_000);
      expect(gc).toHaveBeenCalledTimes(2); // idle: nothing more until the next request
      collector.touch();
      collector.stop();
      vi.advanceTimersByTime(60_000);
      expect(gc).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing without global.gc (node started without --expose-gc)', () => {
    const collector = startIdleCollector({ idleMs: 10 });
    expect(() => collector.touch()).not.toThrow();
    collector.stop();
  });
});

describe('statements kept prepared per connection', () => {
  // Each named text is prepared once on every pooled connection and kept there (pg holds its text,
  // PostgreSQL its plan): what is named must stay bounded whatever shapes the traffic reaches.
  it('a text is named from its second run on, at most 256 texts, never a long text or a long parameter list', () => {
    const nameOf = preparedStatementNames();
    const query = (sql: string, args: unknown[] = []) => nameOf({ sql, args });
    expect(query('SELECT 1')).toBeUndefined();
    const name = query('SELECT 1');
    expect(name).toMatch(/^q[\w-]+$/);
    expect(query('SELECT 1')).toBe(name);
    expect(query('SELECT 2')).toBeUndefined();
    expect(query('SELECT 2')).not.toBe(name);

    const long = `SELECT '${'x'.repeat(16_384)}'`;
    const wide = 'SELECT $1';
    for (let run = 0; run < 3; run++) {
      expect(query(long)).toBeUndefined();
      expect(query(wide, Array.from({ length: 65 }, () => 1))).toBeUndefined();
    }

    for (let i = 0; i < 300; i++) for (let run = 0; run < 2; run++) query(`SELECT ${i} AS n`);
    const named = Array.from({ length: 300 }, (_, i) => query(`SELECT ${i} AS n`)).filter(Boolean);
    expect(named.length).toBe(256 - 2); // 'SELECT 1' and 'SELECT 2' took two places
    expect(query('SELECT 1')).toBe(name);

    // Texts run once are counted in a bounded table: thousands of them never stop a text from being named later.
    const fresh = preparedStatementNames();
    for (let i = 0; i < 10_000; i++) fresh({ sql: `SELECT ${i} AS once`, args: [] });
    fresh({ sql: 'SELECT hot', args: [] });
    expect(fresh({ sql: 'SELECT hot', args: [] })).toMatch(/^q/);
  });
});

describe('the flags the server runs with', () => {
  // V8 sizes its heap before any JavaScript runs: the flags of runtime-tuning.ts work only on the
  // command line, so `npm start` must carry each (the tests and benches that start the built server
  // take them from SERVER_NODE_FLAGS).
  it('npm start passes every flag of SERVER_NODE_FLAGS to node, with SERVER_ENV unless set', () => {
    const start = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    const node = start.split('&&').map((part) => part.trim()).find((part) => / node /.test(` ${part} `))!;
    for (const flag of SERVER_NODE_FLAGS) expect(node.split(/\s+/)).toContain(flag);
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(node).toContain(`${name}=\${${name}:-${value}}`);
  });
});
