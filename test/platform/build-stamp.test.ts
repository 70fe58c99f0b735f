// npm start compiles only when the sources changed since the build (src/cli/build.mjs): the stamp
// against the sources' newest modification time, directories included (a file added or removed).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript, without declarations: it runs before anything is compiled
import { distIsCurrent, newestSourceTime } from '../../src/cli/build.mjs';

const root = mkdtempSync(path.join(os.tmpdir(), 'dp-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
function touch(file: string, seconds: number) {
  utimesSync(path.join(root, file), at(seconds), at(seconds));
}
function stampNow() {
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'server.js'), '');
  writeFileSync(path.join(root, 'dist', '.build-stamp.json'), JSON.stringify({ newestSourceTime: newestSourceTime(root) }));
}

describe('the build stamp', () => {
  it('is current until a source is changed, added or removed, or the compiler settings change', () => {
    mkdirSync(path.join(root, 'src', 'modules'), { recursive: true });
    for (const file of ['src/server.ts', 'src/modules/a.ts', 'tsconfig.json', 'package.json']) writeFileSync(path.join(root, file), 'x');
    for (const [file, seconds] of [['src/server.ts', 1], ['src/modules/a.ts', 2], ['src/modules', 2], ['src', 2], ['tsconfig.json', 1], ['package.json', 1]] as const) touch(file, seconds);
    expect(distIsCurrent(root)).toBe(false); // no dist/ yet
    stampNow();
    expect(distIsCurrent(root)).toBe(true);

    touch('src/modules/a.ts', 10); // edited
    expect(distIsCurrent(root)).toBe(false);
    stampNow();
    expect(distIsCurrent(root)).toBe(true);

    rmSync(path.join(root, 'src/modules/a.ts')); // removed: its folder changes
    touch('src/modules', 20);
    expect(distIsCurrent(root)).toBe(false);
    stampNow();

    touch('tsconfig.json', 30);
    expect(distIsCurrent(root)).toBe(false);
    stampNow();
    rmSync(path.join(root, 'dist', 'server.js')); // a stamp without the server is no build
    expect(distIsCurrent(root)).toBe(false);
  });
});
