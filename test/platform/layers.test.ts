import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers point one way (docs/architecture.md, "Layers"). Each rule names a folder of src/ and what
 * its files may import from; the generated Prisma client counts as part of the database layer. Read
 * from the code's own import statements, so a new file that breaks a rule fails here.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/** The src-relative paths a file imports (static imports, re-exports and dynamic imports). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specifiers.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)));
}

const files = sourceFiles(SRC).map((file) => ({ file: path.relative(SRC, file), imports: importsOf(file) }));

/** Imports from `from` (a folder or file prefix of src/) that are not under one of `allowed`. */
function violations(from: string, allowed: string[]): string[] {
  return files
    .filter((f) => f.file.startsWith(from))
    .flatMap((f) =>
      f.imports
        .filter((target) => !target.startsWith(from) && !allowed.some((a) => target.startsWith(a)))
        .map((target) => `${f.file} -> ${target}`),
    );
}

const TOP_LEVEL = new Set(['app.ts', 'server.ts', 'schema.ts', 'config.ts']);
const FOUNDATION = ['lib/', 'db/', 'generated/', 'config.ts'];

/** Pure rule files: policies, the role ladder, the level arithmetic. */
const isPure = (file: string) => /\.policy\.ts$|\/roles\.ts$|\/access-level\.ts$/.test(file);
const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

describe('layers', () => {
  it('sees the source files and their imports (the rules below are not vacuous)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.find((f) => f.file === 'schema.ts')?.imports).toContain('modules/spaces/index.ts');
  });

  it('every folder of src/ has a rule below', () => {
    const folders = new Set(files.map((f) => f.file.split('/')[0]).filter((first) => !TOP_LEVEL.has(first)));
    expect([...folders].sort()).toEqual(['auth', 'cli', 'core', 'db', 'graphql', 'http', 'jobs', 'lib', 'modules', 'rest']);
  });

  it('lib/ imports nothing of ours', () => {
    expect(violations('lib/', [])).toEqual([]);
  });

  it('db/ imports only the generated Prisma client', () => {
    expect(violations('db/', ['generated/'])).toEqual([]);
  });

  it('jobs/ (the job queue and its runner) imports only the foundation', () => {
    expect(violations('jobs/', FOUNDATION)).toEqual([]);
  });

  it('core/ (errors, request context, loaders, input checks, domain events) knows no GraphQL, REST, HTTP or module', () => {
    expect(violations('core/', FOUNDATION)).toEqual([]);
  });

  it('the GraphQL toolkit (graphql/) knows no domain module, nor the HTTP edge', () => {
    expect(violations('graphql/', [...FOUNDATION, 'core/'])).toEqual([]);
  });

  it('the HTTP edge (http/) knows no door behind it: no REST, GraphQL toolkit, authentication or module', () => {
    expect(violations('http/', [...FOUNDATION, 'core/'])).toEqual([]);
  });

  it('authentication (auth/) stands on the edge and the core; it looks users up through what it is given', () => {
    expect(violations('auth/', [...FOUNDATION, 'core/', 'http/'])).toEqual([]);
  });

  it('the REST door (rest/) stands on the edge and the GraphQL toolkit, and knows no module', () => {
    expect(violations('rest/', [...FOUNDATION, 'core/', 'graphql/', 'http/'])).toEqual([]);
  });

  it('modules stand on everything below them: never on app.ts, schema.ts, authentication or the REST door (but its route-table types)', () => {
    expect(violations('modules/', [...FOUNDATION, 'core/', 'graphql/', 'http/', 'jobs/', 'rest/route-table.ts', 'modules/'])).toEqual([]);
  });

  it('one module reaches another through its index.ts (its public entry); only pure rule files import pure rule files directly', () => {
    const reachingIn = files
      .filter((f) => moduleOf(f.file))
      .flatMap((f) =>
        f.imports
          .filter((target) => moduleOf(target) && moduleOf(target) !== moduleOf(f.file))
          .filter((target) => !target.endsWith('/index.ts') && !(isPure(f.file) && isPure(target)))
          .map((target) => `${f.file} -> ${target}`),
      );
    expect(reachingIn).toEqual([]);
  });

  it('modules depend on each other in one direction: the graph of module imports has no cycle', () => {
    const deps = new Map<string, Set<string>>();
    for (const f of files) {
      const from = moduleOf(f.file);
      if (!from) continue;
      for (const target of f.imports) {
        const to = moduleOf(target);
        if (to && to !== from) deps.set(from, new Set([...(deps.get(from) ?? []), to]));
      }
    }
    expect(deps.size).toBeGreaterThan(10);
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'visiting');
      stack.push(node);
      for (const next of deps.get(node) ?? []) {
        if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
        else if (!state.get(next)) visit(next);
      }
      stack.pop();
      state.set(node, 'done');
    };
    for (const node of deps.keys()) if (!state.get(node)) visit(node);
    expect(cycles).toEqual([]);
  });

  it('organizations, at the bottom of the modules, depends on no other module', () => {
    expect(violations('modules/organizations/', [...FOUNDATION, 'core/', 'graphql/', 'rest/route-table.ts', 'modules/domain-module.ts'])).toEqual([]);
  });

  it('policies are pure: no database, no GraphQL, no request context', () => {
    // Other policies, the role ladder, the level arithmetic, the generic policy machinery, Prisma's types.
    const PURE = [/\.policy\.ts$/, /\/roles\.ts$/, /\/access-level\.ts$/, /^core\/authorization/, /^generated\//];
    const impure = files
      .filter((f) => f.file.endsWith('.policy.ts'))
      .flatMap((f) => f.imports.filter((t) => !PURE.some((pure) => pure.test(t))).map((t) => `${f.file} -> ${t}`));
    expect(impure).toEqual([]);
  });

  it('the app reaches a module through its index.ts only', () => {
    const topImports = files.filter((f) => TOP_LEVEL.has(f.file) || f.file.startsWith('cli/')).flatMap((f) => f.imports.filter((t) => t.startsWith('modules/')));
    expect(topImports.length).toBeGreaterThan(5);
    expect(topImports.filter((t) => !t.endsWith('/index.ts') && t !== 'modules/domain-module.ts')).toEqual([]);
  });
});
