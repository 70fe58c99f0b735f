import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization } from '../factories.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
const base = (o: string) => `/v1/orgs/${o}/translations`;

async function world() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const settings = expectOk(await admin.rest('POST', base(o), { title: 'Europe', languages: ['fr', 'de', 'pt-br'] }), 201);
  return { admin, o, settings, reader: await buildMember(h, o, 'read'), guest: await buildMember(h, o, null) };
}

describe('translation settings', () => {
  it('create, list, get, replace, delete: the description\'s shape', async () => {
    const { admin, o, settings, reader } = await world();
    expect(settings).toEqual({
      object: 'translation-settings',
      id: expect.any(String),
      title: 'Europe',
      languages: ['fr', 'de', 'pt-br'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      permissions: { edit: true },
      urls: { location: `${h.config.apiUrl}/orgs/${o}/translations/${settings.id}` },
    });
    const second = expectOk(await admin.rest('POST', base(o), { title: 'Asia' }), 201);
    expect(second.languages).toEqual([]);
    expect(expectOk(await reader.rest('GET', base(o))).items.map((s: any) => [s.title, s.permissions.edit])).toEqual([['Europe', false], ['Asia', false]]);
    const page = expectOk(await admin.rest('GET', `${base(o)}?limit=1`));
    expect(page).toMatchObject({ count: 2, items: [{ title: 'Europe' }], next: { page: expect.any(String) } });
    expect(expectOk(await reader.rest('GET', `${base(o)}/${settings.id}`)).title).toBe('Europe');
    h.clock.advance(1000);
    const replaced = expectOk(await admin.rest('PUT', `${base(o)}/${settings.id}`, { title: 'Europe (EU)', languages: ['it'] }));
    expect(replaced).toMatchObject({ title: 'Europe (EU)', languages: ['it'] });
    expect(replaced.updatedAt > settings.updatedAt).toBe(true);
    // PUT without languages keeps them.
    expect(expectOk(await admin.rest('PUT', `${base(o)}/${settings.id}`, { title: 'EU' })).languages).toEqual(['it']);
    expectOk(await admin.rest('DELETE', `${base(o)}/${settings.id}`), 204);
    restError(await admin.rest('GET', `${base(o)}/${settings.id}`), 404);
    const data = gqlData(await admin.gql('query($o: String!) { organizationTranslations(organizationId: $o) { items { title languages } } }', { o }), 'organizationTranslations');
    expect(data.items).toEqual([{ title: 'Asia', languages: [] }]);
    const created = gqlData(await admin.gql('mutation($o: String!) { createTranslationSettings(organizationId: $o, title: "Via GraphQL", languages: ["zh-tw"]) { languages } }', { o }), 'createTranslationSettings');
    expect(created.languages).toEqual(['zh-tw']);
  });

  it('400 for a missing or out-of-bounds title and for unknown or repeated languages; nothing written', async () => {
    const { admin, o, settings } = await world();
    restError(await admin.rest('POST', base(o), {}), 400, 'title');
    restError(await admin.rest('POST', base(o), { title: '' }), 400, 'title');
    restError(await admin.rest('POST', base(o), { title: 't'.repeat(101) }), 400, 'title');
    restError(await admin.rest('POST', base(o), { title: 'x', languages: ['xx'] }), 400, 'languages');
    restError(await admin.rest('POST', base(o), { title: 'x', languages: ['pt-BR'] }), 400, 'languages');
    restError(await admin.rest('POST', base(o), { title: 'x', languages: ['fr', 'fr'] }), 400, 'languages');
    restError(await admin.rest('POST', base(o), { title: 'x', languages: 'fr' }), 400, 'languages');
    restError(await admin.rest('PUT', `${base(o)}/${settings.id}`, {}), 400, 'title');
    restError(await admin.rest('PUT', `${base(o)}/${settings.id}`, { title: null }), 400, 'title');
    restError(await admin.rest('GET', `${base(o)}?limit=1001`), 400, 'limit');
    expect(await h.db.translationSettings.count({ where: { organizationId: o } })).toBe(1);
    restError(await admin.rest('PUT', `${base(o)}/nope`, { title: 'x' }), 404);
  });
});

type Ids = { o: string; t: string };
const OPS: RefusalOp<Ids>[] = [
  { name: 'list', rest: ({ o }) => ['GET', base(o)], gql: ({ o }) => ['query($o: String!) { organizationTranslations(organizationId: $o) { count } }', { o }], refuse: 'guest' },
  {
    name: 'get',
    rest: ({ o, t }) => ['GET', `${base(o)}/${t}`],
    gql: ({ o, t }) => ['query($o: String!, $t: String!) { translationSettings(organizationId: $o, translationSettingsId: $t) { id } }', { o, t }],
    refuse: 'guest',
  },
  {
    name: 'create',
    rest: ({ o }) => ['POST', base(o), { title: 'New' }],
    gql: ({ o }) => ['mutation($o: String!) { createTranslationSettings(organizationId: $o, title: "New") { id } }', { o }],
    refuse: 'member',
  },
  {
    name: 'replace',
    rest: ({ o, t }) => ['PUT', `${base(o)}/${t}`, { title: 'Changed' }],
    gql: ({ o, t }) => ['mutation($o: String!, $t: String!) { updateTranslationSettings(organizationId: $o, translationSettingsId: $t, title: "Changed") { id } }', { o, t }],
    refuse: 'member',
  },
  {
    name: 'delete',
    rest: ({ o, t }) => ['DELETE', `${base(o)}/${t}`],
    gql: ({ o, t }) => ['mutation($o: String!, $t: String!) { deleteTranslationSettings(organizationId: $o, translationSettingsId: $t) }', { o, t }],
    refuse: 'member',
  },
];

refusalMatrix(OPS, {
  h,
  setup: world,
  ids: (w) => ({ o: w.o, t: w.settings.id }),
  unknown: { o: 'unknownOrganization1', t: 'unknownSettings00001' },
  // Guests read nothing of the organization's translation settings; other members do not change them.
  forbidden: async (w, refuse) => ({ callers: refuse === 'guest' ? [w.guest] : [w.reader, w.guest] }),
  unchanged: async (w) => {
    expect((await h.db.translationSettings.findMany({ where: { organizationId: w.o } })).map((s) => s.title)).toEqual(['Europe']);
  },
});
