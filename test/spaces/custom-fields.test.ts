import { describe, expect, it } from 'vitest';
import { DOORS, expectFailure, expectOk, restError, throughDoor, type Door, type DoorResult } from '../support/assertions.ts';
import { buildCustomField, buildMember, buildOrganization, buildSpace, buildSpaceWithLevel } from '../factories.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller, type HttpResult } from '../support/harness.ts';

const h = useHarness();

const UNKNOWN_ORG = 'unknownOrg0000000001';
const UNKNOWN_SPACE = 'unknownSpace00000001';
const UNKNOWN_FIELD = 'unknown-field-000001';
const FIELD = 'id name title description type placeholder options createdAt updatedAt urls { location }';

/** A response of either door: `body` is the REST body, or the GraphQL root field with nulls dropped. */
const call = (door: Door, c: Pick<Caller, 'rest'>, rest: [string, string, unknown?], gql: [string, string, Record<string, unknown>]): Promise<DoorResult> =>
  throughDoor(door, c, rest, gql, { dropNulls: true });

const orgPath = (o: string) => `/v1/orgs/${o}/custom-fields`;
const fieldPath = (o: string, n: string) => `${orgPath(o)}/${encodeURIComponent(n)}`;
const spacePath = (s: string) => `/v1/spaces/${s}/custom-fields`;
const CREATE_VARS = '$o:String!,$name:String!,$type:CustomFieldType!,$title:String,$description:String,$placeholder:String,$options:[String!]';
const CREATE_ARGS = 'organizationId:$o,name:$name,type:$type,title:$title,description:$description,placeholder:$placeholder,options:$options';
const UPDATE_VARS = '$o:String!,$n:String!,$title:String,$description:String,$placeholder:String,$options:[String!]';
const UPDATE_ARGS = 'organizationId:$o,fieldName:$n,title:$title,description:$description,placeholder:$placeholder,options:$options';

const api = (door: Door) => ({
  list: (c: Pick<Caller, 'rest'>, o: string, query: { page?: string; limit?: number } = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return call(door, c, ['GET', `${orgPath(o)}${qs ? `?${qs}` : ''}`], [
      'organizationCustomFields',
      `query($o:String!,$page:String,$limit:Int){organizationCustomFields(organizationId:$o,page:$page,limit:$limit){count next{page} items{${FIELD}}}}`,
      { o, ...query },
    ]);
  },
  create: (c: Pick<Caller, 'rest'>, o: string, body: Record<string, unknown>) =>
    call(door, c, ['POST', orgPath(o), body], ['createCustomField', `mutation(${CREATE_VARS}){createCustomField(${CREATE_ARGS}){${FIELD}}}`, { o, ...body }]),
  get: (c: Pick<Caller, 'rest'>, o: string, n: string) =>
    call(door, c, ['GET', fieldPath(o, n)], [
      'organizationCustomField',
      `query($o:String!,$n:String!){organizationCustomField(organizationId:$o,fieldName:$n){${FIELD}}}`,
      { o, n },
    ]),
  update: (c: Pick<Caller, 'rest'>, o: string, n: string, body: Record<string, unknown>) =>
    call(door, c, ['PATCH', fieldPath(o, n), body], ['updateCustomField', `mutation(${UPDATE_VARS}){updateCustomField(${UPDATE_ARGS}){${FIELD}}}`, { o, n, ...body }]),
  remove: (c: Pick<Caller, 'rest'>, o: string, n: string) =>
    call(door, c, ['DELETE', fieldPath(o, n)], [
      'deleteCustomField',
      'mutation($o:String!,$n:String!){deleteCustomField(organizationId:$o,fieldName:$n)}',
      { o, n },
    ]),
  values: (c: Pick<Caller, 'rest'>, s: string) =>
    call(door, c, ['GET', spacePath(s)], [
      'spaceCustomFields',
      `query($s:String!){spaceCustomFields(spaceId:$s){customField{${FIELD}} value}}`,
      { s },
    ]),
  setValues: (c: Pick<Caller, 'rest'>, s: string, body: Record<string, unknown>) =>
    call(door, c, ['PATCH', spacePath(s), body], [
      'updateSpaceCustomFields',
      'mutation($s:String!,$values:JSON!){updateSpaceCustomFields(spaceId:$s,values:$values)}',
      { s, ...body },
    ]),
});

async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const reader = await buildMember(h, o, 'read', 'Reader');
  const editor = await buildMember(h, o, 'edit', 'Editor');
  const creator = await buildMember(h, o, 'create', 'Creator');
  const space = await buildSpace(admin, o, { title: 'S' });
  return { admin, o, reader, editor, creator, space };
}

const fieldRow = (o: string, name: string) => h.db.customField.findUnique({ where: { organizationId_name: { organizationId: o, name } } });
const storedValues = async (spaceId: string) =>
  Object.fromEntries(
    (await h.db.customFieldValue.findMany({ where: { spaceId }, include: { field: true } })).map((v) => [v.field.name, v.value]),
  );

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
