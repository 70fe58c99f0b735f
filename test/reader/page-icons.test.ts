// Page icon names as GitBook writes them, to the shapes drawn (src/modules/reader/layout/page-icons.tsx).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { iconShape } from '../../src/modules/reader/layout/page-icons.tsx';

const require = createRequire(import.meta.url);

describe('page icon names', () => {
  it('a Font Awesome name, with or without a prefix or a style, and its aliases', () => {
    const rocket = iconShape('rocket');
    expect(rocket).toMatchObject({ width: expect.any(Number), height: expect.any(Number), path: expect.stringMatching(/^M/) });
    for (const name of ['fa-rocket', 'fas-rocket', 'solid:rocket', 'regular:rocket', 'Rocket']) expect(iconShape(name), name).toEqual(rocket);
    // `cog` is Font Awesome's older name of `gear`.
    expect(iconShape('cog')).toEqual(iconShape('gear'));
    expect(iconShape('gear')).not.toBeNull();
  });

  it('the regular style where the free set has it, solid otherwise', () => {
    // `bell` exists in both free styles: the regular (outlined) one differs from the solid one.
    const { faBell: regular } = require('@fortawesome/free-regular-svg-icons');
    expect(iconShape('bell')?.path).toBe(regular.icon[4]);
  });

  it('nothing for unknown, malformed or oversized names', () => {
    for (const name of [null, undefined, '', 'no-such-icon', '<script>', 'rocket"/><script>', 'x'.repeat(81), 'a b']) expect(iconShape(name), String(name)).toBeNull();
  });
});
