import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers point one way. Each rule names a folder of src/ and the folders of src/ its files may
 * import from; the generated Prisma client counts as part of the database layer. Read from the code's
 * own import statements, so a new file that breaks a rule fails here.
 */
const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
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

describe('layers', () => {
  it('sees the source files and their imports (the rules below are not vacuous)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.find((f) => f.file === 'schema.ts')?.imports).toContain('modules/spaces/index.ts');
  });

  it('lib/ imports nothing of ours', () => {
    expect(violations('lib/', [])).toEqual([]);
  });

  it('db/ imports only the generated Prisma client', () => {
    expect(violations('db/', ['generated/'])).toEqual([]);
  });

  it('jobs/ (the job queue and its runner) imports only the database layer, lib/ and the configuration', () => {
    expect(violations('jobs/', ['lib/', 'db/', 'generated/', 'config.ts'])).toEqual([]);
  });

  it('core/ (errors, request context, loaders, input checks) knows no GraphQL, REST, HTTP or module', () => {
    expect(violations('core/', ['lib/', 'db/', 'generated/', 'config.ts'])).toEqual([]);
  });

  it('the GraphQL toolkit (graphql/) knows no domain module', () => {
    expect(violations('graphql/', ['lib/', 'db/', 'generated/', 'config.ts', 'core/'])).toEqual([]);
  });

  it('organizations depends on no other module', () => {
    expect(violations('modules/organizations/', ['lib/', 'db/', 'generated/', 'config.ts', 'core/', 'graphql/', 'rest/route-table.ts', 'modules/domain-module.ts'])).toEqual([]);
  });

  it('policies are pure: no database, no GraphQL, no request context', () => {
    // Other policies, the role ladder, the level arithmetic, the generic policy machinery, Prisma's types.
    const PURE = [/\.policy\.ts$/, /\/roles\.ts$/, /\/access-level\.ts$/, /^core\/authorization/, /^generated\//];
    const impure = files
      .filter((f) => f.file.endsWith('.policy.ts'))
      .flatMap((f) => f.imports.filter((t) => !PURE.some((pure) => pure.test(t))).map((t) => `${f.file} -> ${t}`));
    expect(impure).toEqual([]);
  });

  it('a module is reached through its index.ts from the schema assembly only', () => {
    const schemaImports = files.find((f) => f.file === 'schema.ts')!.imports.filter((t) => t.startsWith('modules/') && t !== 'modules/domain-module.ts');
    expect(schemaImports.length).toBeGreaterThan(5);
    expect(schemaImports.every((t) => t.endsWith('/index.ts'))).toBe(true);
  });
});
