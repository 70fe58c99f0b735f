import { describe, expect, it } from 'vitest';
import { DOORS, expectFailure, expectOk, restError, type Door } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildSpace, buildSpaceWithLevel } from '../factories.ts';
import { useHarness, type HttpResult } from '../support/harness.ts';
import { orgPath, fieldPath, spacePath, api, customFieldKit } from './custom-field-kit.ts';

// A space's custom field values: both doors, REST specifics, consistency with the definitions.

const h = useHarness();
const { setup, fieldRow, storedValues } = customFieldKit(h);

async function withFields(door: Door) {
  const env = await setup();
  const cf = api(door);
  const defs: Record<string, unknown>[] = [
    { name: 'text', type: 'text', title: 'Text' },
    { name: 'number', type: 'number' },
    { name: 'boolean', type: 'boolean' },
    { name: 'date', type: 'date' },
    { name: 'url', type: 'url' },
    { name: 'select', type: 'select', options: ['a', 'b', 'c'] },
    { name: 'multi', type: 'multi-select', options: ['a', 'b', 'c'] },
  ];
  for (const def of defs) {
    h.clock.advance(1000);
    expectOk(await cf.create(env.admin, env.o, def), 201);
  }
  return env;
}

describe.each(DOORS)('%s: space custom field values', (door) => {
  const cf = api(door);

  it('GET lists every field of the organization, with the value when set and no value key otherwise', async () => {
    const { admin, o, reader, space } = await withFields(door);
    const before = expectOk(await cf.values(reader, space.id));
    expect(Array.isArray(before)).toBe(true);
    expect(before.map((v: any) => v.customField.name)).toEqual(['text', 'number', 'boolean', 'date', 'url', 'select', 'multi']);
    expect(before.every((v: any) => Object.keys(v).join() === 'customField')).toBe(true);
    expect(before[0].customField).toEqual(expectOk(await cf.get(admin, o, 'text')));

    expectOk(await cf.setValues(admin, space.id, { values: { text: { value: 'hello' }, multi: { value: ['c', 'a'] } } }), 204);
    const after = expectOk(await cf.values(reader, space.id));
    expect(after[0]).toEqual({ customField: before[0].customField, value: 'hello' });
    expect(after[6].value).toEqual(['c', 'a']);
    expect(after.filter((v: any) => Object.hasOwn(v, 'value')).map((v: any) => v.customField.name)).toEqual(['text', 'multi']);
    // Another space of the organization has its own values.
    const other = await buildSpace(admin, o, { title: 'S' });
    expect(expectOk(await cf.values(reader, other.id)).some((v: any) => 'value' in v)).toBe(false);
    // No fields: an empty array.
    const empty = await buildOrganization(h, 'Empty');
    expect(expectOk(await cf.values(empty.admin, (await buildSpace(empty.admin, empty.organizationId)).id))).toEqual([]);
  });

  it('PATCH sets several values at once, normalises them to strings, and null clears', async () => {
    const { editor, space } = await withFields(door);
    expectOk(
      await cf.setValues(editor, space.id, {
        values: {
          text: { value: 'x'.repeat(10000) },
          number: { value: 12.5 },
          boolean: { value: true },
          date: { value: '2024-02-29' },
          url: { value: 'https://example.com/docs?q=1' },
          select: { value: 'b' },
          multi: { value: ['a', 'c'] },
        },
      }),
      204,
    );
    expect(await storedValues(space.id)).toEqual({
      text: 'x'.repeat(10000),
      number: '12.5',
      boolean: 'true',
      date: '2024-02-29',
      url: 'https://example.com/docs?q=1',
      select: 'b',
      multi: ['a', 'c'],
    });
    expectOk(await cf.setValues(editor, space.id, { values: { number: { value: '-3e2' }, boolean: { value: 'false' }, text: { value: null } } }), 204);
    expectOk(await cf.setValues(editor, space.id, { values: { multi: { value: [] }, select: { value: null } } }), 204);
    expect(await storedValues(space.id)).toEqual({ number: '-3e2', boolean: 'false', date: '2024-02-29', url: 'https://example.com/docs?q=1' });
    const listed = expectOk(await cf.values(editor, space.id));
    expect(Object.fromEntries(listed.filter((v: any) => 'value' in v).map((v: any) => [v.customField.name, v.value]))).toEqual({
      number: '-3e2',
      boolean: 'false',
      date: '2024-02-29',
      url: 'https://example.com/docs?q=1',
    });
    // An empty map changes nothing.
    expectOk(await cf.setValues(editor, space.id, { values: {} }), 204);
    expect(Object.keys(await storedValues(space.id))).toHaveLength(4);
  });

  const INVALID: [string, unknown][] = [
    ['text', 'x'.repeat(10001)],
    ['text', 12],
    ['text', ['a']],
    ['number', 'abc'],
    ['number', ''],
    ['number', ' 1'],
    ['number', 'Infinity'],
    ['number', '1e999'],
    ['number', true],
    ['boolean', 'yes'],
    ['boolean', 1],
    ['boolean', 'TRUE'],
    ['date', '2023-02-29'],
    ['date', '2024-13-01'],
    ['date', '2024-1-01'],
    ['date', '2024-01-01T00:00:00Z'],
    ['date', 20240101],
    ['url', 'example.com'],
    ['url', 'ftp://example.com/x'],
    ['url', 'javascript:alert(1)'],
    ['url', `https://example.com/${'x'.repeat(2048)}`],
    ['select', 'z'],
    ['select', ['a']],
    ['select', 'A'],
    ['multi', 'a'],
    ['multi', ['a', 'a']],
    ['multi', ['a', 'z']],
    ['multi', [1]],
  ];

  it('refuses a value that does not fit its type or options with a 400 naming the field', async () => {
    const { editor, space } = await withFields(door);
    for (const [name, value] of INVALID) {
      expectFailure(await cf.setValues(editor, space.id, { values: { [name]: { value } } }), 400, `values.${name}`);
    }
    expect(await storedValues(space.id)).toEqual({});
  });

  it('is all or nothing: one bad value or one unknown field name → 400 and nothing changes', async () => {
    const { o, editor, space } = await withFields(door);
    const initial = { text: { value: 'before' }, number: { value: '1' }, select: { value: 'a' } };
    expectOk(await cf.setValues(editor, space.id, { values: initial }), 204);
    const snapshot = await storedValues(space.id);
    const good = { text: { value: 'after' }, number: { value: null }, multi: { value: ['b'] }, boolean: { value: true } };
    expectFailure(await cf.setValues(editor, space.id, { values: { ...good, select: { value: 'nope' } } }), 400, 'values.select');
    expectFailure(await cf.setValues(editor, space.id, { values: { ...good, 'no-such-field': { value: 'x' } } }), 400, 'values.no-such-field');
    const other = await buildOrganization(h, 'Other');
    expectOk(await api(door).create(other.admin, other.organizationId, { name: 'foreign', type: 'text' }), 201);
    expectFailure(await cf.setValues(editor, space.id, { values: { ...good, foreign: { value: 'x' } } }), 400, 'values.foreign');
    expect(await storedValues(space.id)).toEqual(snapshot);
    expect(snapshot).toEqual({ text: 'before', number: '1', select: 'a' });
    expect(await h.db.customField.count({ where: { organizationId: o } })).toBe(7);
  });

  it('refuses a body that is not { values: { name: { value } } }', async () => {
    const { editor, space } = await withFields(door);
    expectFailure(await cf.setValues(editor, space.id, {}), 400, 'values');
    expectFailure(await cf.setValues(editor, space.id, { values: null }), 400, 'values');
    expectFailure(await cf.setValues(editor, space.id, { values: [] }), 400, 'values');
    expectFailure(await cf.setValues(editor, space.id, { values: 'text' }), 400, 'values');
    expectFailure(await cf.setValues(editor, space.id, { values: { text: 'bare' } }), 400, 'values.text');
    expectFailure(await cf.setValues(editor, space.id, { values: { text: {} } }), 400, 'values.text');
    expectFailure(await cf.setValues(editor, space.id, { values: { text: { value: 'a', extra: 1 } } }), 400, 'values.text');
    expect(await storedValues(space.id)).toEqual({});
  });

  it('PATCH needs the edit level on the space, GET the read level (the 403s are in the refusal matrix)', async () => {
    const { admin, o, reader, editor, space } = await withFields(door);
    expect(expectOk(await cf.values(reader, space.id))).toHaveLength(7);
    // A space whose defaultLevel is edit lets the read member edit it.
    const open = await buildSpaceWithLevel(admin, o, 'edit');
    expectOk(await cf.setValues(reader, open.id, { values: { text: { value: 'x' } } }), 204);
    // A guest reaches only what is granted: nothing here (404), then read access.
    const guest = await buildMember(h, o, null, 'Guest');
    expectFailure(await cf.values(guest, space.id), 404);
    expectFailure(await cf.setValues(guest, space.id, { values: { text: { value: 'x' } } }), 404);
    await h.db.spaceUserGrant.create({ data: { spaceId: space.id, organizationId: o, userId: guest.userId, role: 'read' } });
    expect(expectOk(await cf.values(guest, space.id))).toHaveLength(7);
    expect(await storedValues(space.id)).toEqual({});
    expectOk(await cf.setValues(editor, space.id, { values: { text: { value: 'by editor' } } }), 204);
    expectOk(await cf.setValues(admin, space.id, { values: { number: { value: 1 } } }), 204);
    expect(await storedValues(space.id)).toEqual({ text: 'by editor', number: '1' });
  });

  it('deleted spaces are gone: their values cannot be set (404)', async () => {
    const { admin, space } = await withFields(door);
    await h.db.space.update({ where: { id: space.id }, data: { deletedAt: h.clock.now() } });
    expectFailure(await cf.setValues(admin, space.id, { values: { text: { value: 'x' } } }), 404);
    expect(await storedValues(space.id)).toEqual({});
  });

  it("deleting a field removes its values on every space", async () => {
    const { admin, o, space } = await withFields(door);
    const second = await buildSpace(admin, o, { title: 'S' });
    for (const s of [space, second]) {
      expectOk(await cf.setValues(admin, s.id, { values: { select: { value: 'a' }, text: { value: 'keep' } } }), 204);
    }
    const fieldId = (await fieldRow(o, 'select'))!.id;
    expect(await h.db.customFieldValue.count({ where: { fieldId } })).toBe(2);
    expectOk(await cf.remove(admin, o, 'select'), 204);
    expect(await h.db.customFieldValue.count({ where: { fieldId } })).toBe(0);
    for (const s of [space, second]) {
      expect(await storedValues(s.id)).toEqual({ text: 'keep' });
      expect(expectOk(await cf.values(admin, s.id)).map((v: any) => v.customField.name)).not.toContain('select');
    }
    expectFailure(await cf.setValues(admin, space.id, { values: { select: { value: 'a' } } }), 400, 'values.select');
    // A new field with the same name starts empty.
    expectOk(await cf.create(admin, o, { name: 'select', type: 'select', options: ['a'] }), 201);
    expect(expectOk(await cf.values(admin, space.id)).find((v: any) => v.customField.name === 'select')).not.toHaveProperty('value');
  });

  it('removing options removes them from the values that used them, in the same change', async () => {
    const { admin, o, space } = await withFields(door);
    const s2 = await buildSpace(admin, o, { title: 'S' });
    const s3 = await buildSpace(admin, o, { title: 'S' });
    expectOk(await cf.setValues(admin, space.id, { values: { select: { value: 'a' }, multi: { value: ['a', 'b'] } } }), 204);
    expectOk(await cf.setValues(admin, s2.id, { values: { select: { value: 'b' }, multi: { value: ['a'] } } }), 204);
    expectOk(await cf.setValues(admin, s3.id, { values: { select: { value: 'c' }, multi: { value: ['c', 'b'] } } }), 204);
    // Reordering and adding options keeps every value.
    expectOk(await cf.update(admin, o, 'select', { options: ['c', 'b', 'a', 'd'] }));
    expect(await storedValues(space.id)).toEqual({ select: 'a', multi: ['a', 'b'] });

    expectOk(await cf.update(admin, o, 'select', { options: ['b', 'c', 'd'] }));
    expectOk(await cf.update(admin, o, 'multi', { options: ['b', 'c', 'new'] }));
    expect(await storedValues(space.id)).toEqual({ multi: ['b'] });
    expect(await storedValues(s2.id)).toEqual({ select: 'b' });
    expect(await storedValues(s3.id)).toEqual({ select: 'c', multi: ['c', 'b'] });
    const listed = expectOk(await cf.values(admin, space.id));
    expect(listed.find((v: any) => v.customField.name === 'select')).not.toHaveProperty('value');
    expect(listed.find((v: any) => v.customField.name === 'multi')).toMatchObject({ value: ['b'], customField: { options: ['b', 'c', 'new'] } });
    // The removed option is no longer accepted; the new one is.
    expectFailure(await cf.setValues(admin, space.id, { values: { multi: { value: ['a'] } } }), 400, 'values.multi');
    expectOk(await cf.setValues(admin, space.id, { values: { multi: { value: ['new'] } } }), 204);
  });
});

describe('REST specifics', () => {
  it('GET /spaces/{id}/custom-fields is a bare array and the 204s have empty bodies', async () => {
    const { admin, o, space } = await withFields('rest');
    const res = await admin.rest('GET', spacePath(space.id));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const patched = await admin.rest('PATCH', spacePath(space.id), { values: { text: { value: 'x' } } });
    expect([patched.status, patched.text]).toEqual([204, '']);
    const deleted = await admin.rest('DELETE', fieldPath(o, 'text'));
    expect([deleted.status, deleted.text]).toEqual([204, '']);
  });

  it('a malformed body is a 400', async () => {
    const { admin, o, space } = await withFields('rest');
    restError(await admin.raw('POST', orgPath(o), '{"name": "x",'), 400);
    restError(await admin.raw('PATCH', spacePath(space.id), '[]'), 400);
    restError(await admin.rest('POST', orgPath(o), { name: 12, type: 'text' }), 400, 'name');
  });
});

describe('consistency', () => {
  it('two concurrent creates of the same name: one 201, one 409', async () => {
    const { admin, o } = await setup();
    const results = await Promise.all([1, 2].map(() => admin.rest('POST', orgPath(o), { name: 'race', type: 'text' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await h.db.customField.count({ where: { organizationId: o, name: 'race' } })).toBe(1);
  });

  it('a value PATCH racing an option removal never leaves a removed option stored', async () => {
    const { admin, o } = await withFields('rest');
    for (let round = 0; round < 5; round++) {
      const space = await buildSpace(admin, o, { title: 'S' });
      const options = round % 2 ? ['a', 'b', 'c'] : ['b', 'c'];
      const [patched] = await Promise.all([
        admin.rest('PATCH', spacePath(space.id), { values: { select: { value: 'a' }, multi: { value: ['a', 'b'] } } }),
        admin.rest('PATCH', fieldPath(o, 'select'), { options }),
        admin.rest('PATCH', fieldPath(o, 'multi'), { options }),
      ]);
      expect([204, 400]).toContain(patched.status);
      const stored = await storedValues(space.id);
      if (stored.select !== undefined) expect(options).toContain(stored.select);
      for (const option of (stored.multi as string[] | undefined) ?? []) expect(options).toContain(option);
    }
  });

  it('the field list and the space values cost the same SQL statements for 2 and 20 fields (no N+1)', async () => {
    const statements = async (fields: number) => {
      const { admin, o, space } = await setup();
      const values: Record<string, { value: string }> = {};
      for (let i = 0; i < fields; i++) {
        h.clock.advance(1000);
        expect((await admin.rest('POST', orgPath(o), { name: `f${i}`, type: 'text' })).status).toBe(201);
        values[`f${i}`] = { value: `v${i}` };
      }
      const count = async (action: () => Promise<HttpResult>) => {
        const before = h.store.queries.length;
        const res = await action();
        expect(res.status, res.text).toBeLessThan(300);
        return h.store.queries.length - before;
      };
      return [
        await count(() => admin.rest('PATCH', spacePath(space.id), { values })),
        await count(() => admin.rest('GET', orgPath(o))),
        await count(() => admin.rest('GET', spacePath(space.id))),
        await count(() => admin.gql(`{spaceCustomFields(spaceId:"${space.id}"){value customField{name urls{location}}}}`)),
      ];
    };
    expect(await statements(20)).toEqual(await statements(2));
  });
});
