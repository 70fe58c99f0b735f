import { describe, expect, it } from 'vitest';
import { SettlingLoader } from '../../src/core/loaders.ts';

describe('SettlingLoader', () => {
  it('peeks nothing before a load settles, then the loaded value; primed values at once', async () => {
    let batches = 0;
    const loader = new SettlingLoader<string, number>(async (keys) => {
      batches++;
      return keys.map((k) => k.length);
    });
    expect(loader.peek('abc')).toBeUndefined();
    const pending = loader.load('abc');
    expect(loader.peek('abc')).toBeUndefined();
    expect(await pending).toBe(3);
    expect(loader.peek('abc')).toBe(3);
    loader.prime('xy', 7);
    expect(loader.peek('xy')).toBe(7);
    expect(await loader.load('xy')).toBe(7);
    expect(batches).toBe(1);
  });

  it('does not remember failures or primed promises as values', async () => {
    const loader = new SettlingLoader<string, number>(async (keys) => keys.map((k) => (k === 'bad' ? new Error('no') : 1)));
    await expect(loader.load('bad')).rejects.toThrow('no');
    expect(loader.peek('bad')).toBeUndefined();
    loader.prime('err', new Error('primed failure'));
    expect(loader.peek('err')).toBeUndefined();
    loader.prime('later', Promise.resolve(5) as unknown as number);
    expect(loader.peek('later')).toBeUndefined();
  });
});
