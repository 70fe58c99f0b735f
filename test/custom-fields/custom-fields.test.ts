import { describe, expect, it } from 'vitest';
import { DOORS, expectFailure, expectOk } from '../support/assertions.ts';
import { buildCustomField, buildMember, buildOrganization } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';
import { UNKNOWN_ORG, UNKNOWN_SPACE, UNKNOWN_FIELD, orgPath, fieldPath, spacePath, api, customFieldKit } from './custom-field-kit.ts';

// An organization's custom fields (GitBook's custom-fields operations): both doors, refusals.

const h = useHarness();
const { setup, fieldRow } = customFieldKit(h);

/** o: the organization, n: the name of one of its fields, s: one of its spaces. */
type Ids = { o: string; n: string; s: string };
const NOT_ADMIN = 'members who are not admins (guests included)';
const NO_EDIT = "members without the edit level on the space (a guest granted read included)";
const OPS: RefusalOp<Ids>[] = [
  {
    name: 'list fields',
    rest: ({ o }) => ['GET', orgPath(o)],
    gql: ({ o }) => ['query($o:String!){organizationCustomFields(organizationId:$o){count}}', { o }],
  },
  {
    name: 'create field', refuse: NOT_ADMIN,
    rest: ({ o }) => ['POST', orgPath(o), { name: 'created', type: 'text' }],
    gql: ({ o }) => ['mutation($o:String!){createCustomField(organizationId:$o,name:"created",type:"text"){id}}', { o }],
  },
  {
    name: 'get field',
    rest: ({ o, n }) => ['GET', fieldPath(o, n)],
    gql: ({ o, n }) => ['query($o:String!,$n:String!){organizationCustomField(organizationId:$o,fieldName:$n){id}}', { o, n }],
  },
  {
    name: 'update field', refuse: NOT_ADMIN,
    rest: ({ o, n }) => ['PATCH', fieldPath(o, n), { title: 'Changed', options: ['b'] }],
    gql: ({ o, n }) => ['mutation($o:String!,$n:String!){updateCustomField(organizationId:$o,fieldName:$n,title:"Changed",options:["b"]){id}}', { o, n }],
  },
  {
    name: 'delete field', refuse: NOT_ADMIN,
    rest: ({ o, n }) => ['DELETE', fieldPath(o, n)],
    gql: ({ o, n }) => ['mutation($o:String!,$n:String!){deleteCustomField(organizationId:$o,fieldName:$n)}', { o, n }],
  },
  {
    name: 'get space values',
    rest: ({ s }) => ['GET', spacePath(s)],
    gql: ({ s }) => ['query($s:String!){spaceCustomFields(spaceId:$s){value}}', { s }],
  },
  {
    name: 'set space values', refuse: NO_EDIT,
    rest: ({ s, n }) => ['PATCH', spacePath(s), { values: { [n]: { value: 'b' } } }],
    gql: ({ s, n }) => ['mutation($s:String!,$v:JSON!){updateSpaceCustomFields(spaceId:$s,values:$v)}', { s, v: { [n]: { value: 'b' } } }],
  },
];

/** Every custom field row and value row of the organization and its space, and how many there are in all. */
const snapshot = async (o: string, spaceId: string) => ({
  fields: await h.db.customField.findMany({ where: { organizationId: o }, orderBy: { id: 'asc' } }),
  values: await h.db.customFieldValue.findMany({ where: { spaceId }, orderBy: { fieldId: 'asc' } }),
  allFields: await h.db.customField.count(),
  allValues: await h.db.customFieldValue.count(),
});

refusalMatrix(OPS, {
  h,
  // setup()'s organization with one select field, whose value on the space is set.
  setup: async () => {
    const w = await setup();
    await buildCustomField(w.admin, w.o, { name: 'refusal-probe', type: 'select', title: 'Probe', options: ['a', 'b'] });
    expectOk(await w.admin.rest('PATCH', spacePath(w.space.id), { values: { 'refusal-probe': { value: 'a' } } }), 204);
    const before = await snapshot(w.o, w.space.id);
    expect(before.fields).toEqual([expect.objectContaining({ name: 'refusal-probe', title: 'Probe', options: ['a', 'b'] })]);
    expect(before.values).toEqual([expect.objectContaining({ value: 'a' })]);
    return { ...w, before };
  },
  ids: (w) => ({ o: w.o, n: 'refusal-probe', s: w.space.id }),
  unknown: { o: UNKNOWN_ORG, n: UNKNOWN_FIELD, s: UNKNOWN_SPACE },
  forbidden: async (w, refuse) => {
    const guest = await buildMember(h, w.o, null, 'Guest');
    if (refuse === NOT_ADMIN) return { callers: [w.reader, w.editor, w.creator, guest] };
    await h.db.spaceUserGrant.create({ data: { spaceId: w.space.id, organizationId: w.o, userId: guest.userId, role: 'read' } });
    return { callers: [w.reader, guest] };
  },
  unchanged: async (w) => {
    expect(await snapshot(w.o, w.space.id)).toEqual(w.before);
  },
});

describe.each(DOORS)('%s: organization custom fields', (door) => {
  const cf = api(door);

  it('create, get, list, update and delete a field, with the documented shape', async () => {
    const { admin, o, reader } = await setup();
    const created = await cf.create(admin, o, {
      name: 'product-area_1',
      type: 'select',
      title: 'Product area',
      description: 'Where it belongs',
      placeholder: 'Pick one',
      options: ['api', 'ui'],
    });
    const field = expectOk(created, 201);
    const location = `${h.config.apiUrl}/orgs/${o}/custom-fields/product-area_1`;
    expect(field).toEqual({
      id: expect.any(String),
      name: 'product-area_1',
      title: 'Product area',
      description: 'Where it belongs',
      type: 'select',
      placeholder: 'Pick one',
      options: ['api', 'ui'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      urls: { location },
    });
    if (door === 'rest') expect(created.raw.headers.get('location')).toBe(location);

    // Absent optionals are absent (REST omits them; GraphQL returns null), and a text field has no options.
    h.clock.advance(1000);
    const text = expectOk(await cf.create(admin, o, { name: 'notes', type: 'text' }), 201);
    expect(Object.keys(text).sort()).toEqual(['createdAt', 'id', 'name', 'type', 'updatedAt', 'urls']);
    if (door === 'graphql') expect(text.options).toBeUndefined();

    expect(expectOk(await cf.get(reader, o, 'product-area_1'))).toEqual(field);
    const list = expectOk(await cf.list(reader, o));
    expect(list.count).toBe(2);
    expect(list.items.map((f: any) => f.name)).toEqual(['product-area_1', 'notes']);
    expect(list.next).toBeUndefined();

    h.clock.advance(1000);
    const updated = expectOk(await cf.update(admin, o, 'product-area_1', { title: 'Area', description: null, options: ['api', 'ui', 'docs'] }));
    expect(updated).toEqual({ ...field, title: 'Area', description: undefined, options: ['api', 'ui', 'docs'], updatedAt: expect.any(String) });
    expect(Object.hasOwn(updated, 'description')).toBe(false);
    expect(updated.updatedAt > field.updatedAt).toBe(true);
    // Absent arguments change nothing.
    expect(expectOk(await cf.update(admin, o, 'product-area_1', {}))).toMatchObject({ title: 'Area', placeholder: 'Pick one' });

    expectOk(await cf.remove(admin, o, 'product-area_1'), 204);
    expectFailure(await cf.get(admin, o, 'product-area_1'), 404);
    expectFailure(await cf.update(admin, o, 'product-area_1', { title: 'x' }), 404);
    expectFailure(await cf.remove(admin, o, 'product-area_1'), 404);
    expect(expectOk(await cf.list(admin, o)).count).toBe(1);
  });

  it('accepts exactly the documented type spellings, "multi-select" with a hyphen', async () => {
    const { admin, o } = await setup();
    for (const type of ['text', 'number', 'boolean', 'date', 'url']) {
      expect(expectOk(await cf.create(admin, o, { name: `f-${type}`, type }), 201).type).toBe(type);
    }
    for (const type of ['select', 'multi-select']) {
      expect(expectOk(await cf.create(admin, o, { name: `f-${type}`, type, options: ['a'] }), 201).type).toBe(type);
    }
    expect((await fieldRow(o, 'f-multi-select'))?.type).toBe('multi_select');
    for (const type of ['multi_select', 'MULTI-SELECT', 'Text', 'checkbox', '']) {
      expectFailure(await cf.create(admin, o, { name: 'bad-type', type, options: ['a'] }), 400, 'type');
    }
    const multi = expectOk(await cf.get(admin, o, 'f-multi-select'));
    expect(multi).toMatchObject({ type: 'multi-select', options: ['a'] });
    expect(expectOk(await cf.list(admin, o)).items.map((f: any) => f.type).sort()).toEqual(
      ['boolean', 'date', 'multi-select', 'number', 'select', 'text', 'url'],
    );
  });

  it('create: name 1..50 matching ^[a-z_\\-0-9]+$, required', async () => {
    const { admin, o } = await setup();
    expectOk(await cf.create(admin, o, { name: 'a'.repeat(50), type: 'text' }), 201);
    expectOk(await cf.create(admin, o, { name: 'x', type: 'text' }), 201);
    expectFailure(await cf.create(admin, o, { name: 'b'.repeat(51), type: 'text' }), 400, 'name');
    expectFailure(await cf.create(admin, o, { name: '', type: 'text' }), 400, 'name');
    for (const name of ['Upper', 'with space', 'dot.ted', 'é', 'slash/x']) expectFailure(await cf.create(admin, o, { name, type: 'text' }), 400, 'name');
    expectFailure(await cf.create(admin, o, { type: 'text' }), 400, 'name');
    expectFailure(await cf.create(admin, o, { name: 'no-type' }), 400, 'type');
    expect(await h.db.customField.count({ where: { organizationId: o } })).toBe(2);
  });

  it('create: title max 100, description max 200, placeholder max 100', async () => {
    const { admin, o } = await setup();
    const atBound = expectOk(await cf.create(admin, o, { name: 'bounds', type: 'text', title: 't'.repeat(100), description: 'd'.repeat(200), placeholder: 'p'.repeat(100) }), 201);
    expect([atBound.title.length, atBound.description.length, atBound.placeholder.length]).toEqual([100, 200, 100]);
    expectFailure(await cf.create(admin, o, { name: 'x1', type: 'text', title: 't'.repeat(101) }), 400, 'title');
    expectFailure(await cf.create(admin, o, { name: 'x2', type: 'text', description: 'd'.repeat(201) }), 400, 'description');
    expectFailure(await cf.create(admin, o, { name: 'x3', type: 'text', placeholder: 'p'.repeat(101) }), 400, 'placeholder');
    expect(await h.db.customField.count({ where: { organizationId: o } })).toBe(1);
  });

  it('create: options 1..50, required for select and multi-select, refused for other types', async () => {
    const { admin, o } = await setup();
    const fifty = Array.from({ length: 50 }, (_, i) => `o${i}`);
    expect(expectOk(await cf.create(admin, o, { name: 'one', type: 'select', options: ['only'] }), 201).options).toEqual(['only']);
    expect(expectOk(await cf.create(admin, o, { name: 'fifty', type: 'multi-select', options: fifty }), 201).options).toEqual(fifty);
    expectFailure(await cf.create(admin, o, { name: 'zero', type: 'select', options: [] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'many', type: 'select', options: [...fifty, 'o50'] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'missing', type: 'select' }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'missing2', type: 'multi-select', options: null }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'twice', type: 'select', options: ['a', 'a'] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'blank', type: 'select', options: ['a', ''] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'long', type: 'select', options: ['x'.repeat(101)] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'text-opts', type: 'text', options: ['a'] }), 400, 'options');
    expectFailure(await cf.create(admin, o, { name: 'num-opts', type: 'number', options: [] }), 400, 'options');
    if (door === 'rest') expectFailure(await cf.create(admin, o, { name: 'scalar', type: 'select', options: 'a' }), 400, 'options');
    expect(await h.db.customField.count({ where: { organizationId: o } })).toBe(2);
  });

  it('create: a duplicate name in the organization is a 409; the same name elsewhere is fine', async () => {
    const { admin, o } = await setup();
    expectOk(await cf.create(admin, o, { name: 'owner', type: 'text' }), 201);
    expectFailure(await cf.create(admin, o, { name: 'owner', type: 'number', title: 'Again' }), 409);
    const other = await buildOrganization(h, 'Other');
    expectOk(await cf.create(other.admin, other.organizationId, { name: 'owner', type: 'text' }), 201);
    expect((await fieldRow(o, 'owner'))?.type).toBe('text');
  });

  it('update: limits at and past the bound; options only on select types, never null there', async () => {
    const { admin, o } = await setup();
    expectOk(await cf.create(admin, o, { name: 'sel', type: 'select', title: 'Sel', options: ['a'] }), 201);
    expectOk(await cf.create(admin, o, { name: 'txt', type: 'text' }), 201);
    const atBound = expectOk(await cf.update(admin, o, 'sel', { title: 't'.repeat(100), description: 'd'.repeat(200), placeholder: 'p'.repeat(100) }));
    expect([atBound.title.length, atBound.description.length, atBound.placeholder.length]).toEqual([100, 200, 100]);
    expectFailure(await cf.update(admin, o, 'sel', { title: 't'.repeat(101) }), 400, 'title');
    expectFailure(await cf.update(admin, o, 'sel', { description: 'd'.repeat(201) }), 400, 'description');
    expectFailure(await cf.update(admin, o, 'sel', { placeholder: 'p'.repeat(101) }), 400, 'placeholder');
    const fifty = Array.from({ length: 50 }, (_, i) => `o${i}`);
    expect(expectOk(await cf.update(admin, o, 'sel', { options: fifty })).options).toEqual(fifty);
    expect(expectOk(await cf.update(admin, o, 'sel', { options: ['z'] })).options).toEqual(['z']);
    expectFailure(await cf.update(admin, o, 'sel', { options: [] }), 400, 'options');
    expectFailure(await cf.update(admin, o, 'sel', { options: [...fifty, 'o50'] }), 400, 'options');
    expectFailure(await cf.update(admin, o, 'sel', { options: null }), 400, 'options');
    expectFailure(await cf.update(admin, o, 'txt', { options: ['a'] }), 400, 'options');
    expectOk(await cf.update(admin, o, 'txt', { options: null }));
    // A refused update changes nothing, not even the fields that were valid.
    expectFailure(await cf.update(admin, o, 'sel', { title: 'New', options: [] }), 400, 'options');
    expect(await fieldRow(o, 'sel')).toMatchObject({ title: 't'.repeat(100), options: ['z'] });
    // Cleared texts disappear.
    const cleared = expectOk(await cf.update(admin, o, 'sel', { title: null, description: null, placeholder: null }));
    expect(Object.keys(cleared).sort()).toEqual(['createdAt', 'id', 'name', 'options', 'type', 'updatedAt', 'urls']);
  });

  it('list: page and limit (1..1000)', async () => {
    const { admin, o, reader } = await setup();
    for (const name of ['a1', 'a2', 'a3']) {
      h.clock.advance(1000);
      expectOk(await cf.create(admin, o, { name, type: 'text' }), 201);
    }
    const first = expectOk(await cf.list(reader, o, { limit: 2 }));
    expect(first.items.map((f: any) => f.name)).toEqual(['a1', 'a2']);
    expect(first.count).toBe(3);
    const second = expectOk(await cf.list(reader, o, { limit: 2, page: first.next.page }));
    expect(second.items.map((f: any) => f.name)).toEqual(['a3']);
    expect(second.next).toBeUndefined();
    expect(expectOk(await cf.list(reader, o, { limit: 1000 })).items).toHaveLength(3);
    expectFailure(await cf.list(reader, o, { limit: 1001 }), 400, 'limit');
    expectFailure(await cf.list(reader, o, { limit: 0 }), 400, 'limit');
    expectFailure(await cf.list(reader, o, { page: 'not-a-cursor' }), 400, 'page');
  });

  it('any member, a guest too, lists and reads the fields', async () => {
    const { admin, o, reader, editor, creator } = await setup();
    expectOk(await cf.create(admin, o, { name: 'f', type: 'text', title: 'F' }), 201);
    const guest = await buildMember(h, o, null, 'Guest');
    for (const member of [reader, editor, creator, guest]) {
      expect(expectOk(await cf.list(member, o)).count).toBe(1);
      expect(expectOk(await cf.get(member, o, 'f')).title).toBe('F');
    }
  });

  it('a field of another organization, asked for through the caller own organization, is unknown', async () => {
    const { admin, o } = await setup();
    const other = await buildOrganization(h, 'Other');
    expectOk(await cf.create(other.admin, other.organizationId, { name: 'theirs', type: 'text' }), 201);
    expectFailure(await cf.get(admin, o, 'theirs'), 404);
    expectFailure(await cf.update(admin, o, 'theirs', { title: 'x' }), 404);
    expectFailure(await cf.remove(admin, o, 'theirs'), 404);
    expect(await fieldRow(other.organizationId, 'theirs')).toMatchObject({ title: null });
  });
});

/** An organization with one field of each type and a space. */
