import { describe, expect, it } from 'vitest';
import { decryptSecrets } from '../../src/modules/integrations/integration-secrets.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { anonymous, BASE, useHarness, type Caller } from '../support/harness.ts';
import { expectOk, gqlData, restError } from '../support/assertions.ts';
import { DIAGRAM_GIF, LOGO_PNG } from '../support/fixture-site.ts';

const h = useHarness();
const path = (name: string) => `/v1/integrations/${name}`;
const body = (organization: string, extra: Record<string, unknown> = {}) => ({
  runtime: 'v2',
  title: 'Slack alerts',
  description: 'Sends alerts to Slack',
  scopes: ['space:content:read', 'site:views:read'],
  organization,
  previewImages: [],
  script: 'export default { async fetch() { return new Response("ok"); } };',
  ...extra,
});

async function world() {
  const owner = await buildOrganization(h, 'Owner');
  const other = await buildOrganization(h, 'Other');
  const member = await buildMember(h, owner.organizationId, 'edit');
  return { owner, other, member };
}

let counter = 0;
const uniqueName = (base: string) => `${base}-${++counter}-${Date.now().toString(36)}`;

describe('integrations', () => {
  it('publish: GitBook\'s shape, images served, secrets encrypted and never answered; publishing again bumps the version', async () => {
    const { owner } = await world();
    const name = uniqueName('slack');
    const published = expectOk(
      await owner.admin.rest(
        'POST',
        path(name),
        body(owner.organizationId, {
          icon: LOGO_PNG.toString('base64'),
          previewImages: [DIAGRAM_GIF.toString('base64')],
          summary: '# Slack\n\nAlerts.',
          visibility: 'public',
          target: 'space',
          categories: ['collaboration'],
          blocks: [{ id: 'unfurl', title: 'Unfurl', urlUnfurl: ['https://slack.com/*'] }],
          externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
          configurations: { account: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] } },
          secrets: { SLACK_TOKEN: 'xoxb-very-secret' },
          contentSecurityPolicy: { 'script-src': "'self'" },
        }),
      ),
      200,
      'publishIntegration',
    );
    expect(published).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'Slack alerts',
      visibility: 'public',
      target: 'space',
      verified: false,
      scopes: ['space:content:read', 'site:views:read'],
      categories: ['collaboration'],
      owner: { id: owner.organizationId },
      permissions: { admin: true },
      urls: { location: `${h.config.apiUrl}/integrations/${name}`, app: expect.any(String), icon: expect.any(String) },
    });
    expect(JSON.stringify(published)).not.toContain('xoxb-very-secret');
    expect(published).not.toHaveProperty('secrets');
    expect(published).not.toHaveProperty('script');
    // The icon is served (type read from its bytes), the preview image too.
    const icon = await h.app.fetch(published.urls.icon.replace(h.config.publicUrl, BASE));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).equals(LOGO_PNG)).toBe(true);
    expect((await h.app.fetch(published.previewImages[0].replace(h.config.publicUrl, BASE))).headers.get('content-type')).toBe('image/gif');
    // Secrets: encrypted at rest, the key shared through the database.
    const row = await h.db.integration.findUniqueOrThrow({ where: { name } });
    expect(row.secretsEncrypted).not.toContain('xoxb');
    expect(await decryptSecrets(h.db, row.secretsEncrypted!)).toEqual({ SLACK_TOKEN: 'xoxb-very-secret' });
    expect(row.script).toContain('new Response');

    const again = expectOk(await owner.admin.rest('POST', path(name), body(owner.organizationId, { title: 'Slack alerts v2' })), 200, 'publishIntegration');
    expect(again).toMatchObject({ version: 2, title: 'Slack alerts v2', visibility: 'private', categories: [] });
    expect(again.urls.icon).toBeUndefined();
  });

  it('a name belongs to its first publisher\'s organization; publishing needs to administer the organization named (by ID or hostname)', async () => {
    const { owner, other, member } = await world();
    const name = uniqueName('taken');
    expectOk(await owner.admin.rest('POST', path(name), body(owner.organizationId)));
    restError(await other.admin.rest('POST', path(name), body(other.organizationId)), 409);
    restError(await member.rest('POST', path(uniqueName('mine')), body(owner.organizationId)), 403);
    restError(await other.admin.rest('POST', path(uniqueName('theirs')), body(owner.organizationId)), 404);
    restError(await other.admin.rest('POST', path(uniqueName('nowhere')), body('unknownOrganization1')), 404);
    const hostname = `owner${counter}`;
    expectOk(await owner.admin.rest('PATCH', `/v1/orgs/${owner.organizationId}`, { hostname }));
    expect(expectOk(await owner.admin.rest('POST', path(uniqueName('byhost')), body(hostname))).owner.id).toBe(owner.organizationId);
    // Every scope and category GitBook's client and CLI send, the earlier names of CLI 0.25.0 included.
    const legacy = expectOk(await owner.admin.rest('POST', path(uniqueName('legacy')), body(owner.organizationId, { scopes: ['space:views:read', 'space:script:inject'], categories: ['gitsync'] })));
    expect(legacy).toMatchObject({ scopes: ['space:views:read', 'space:script:inject'], categories: ['gitsync'] });
  });

  it('400 at each documented limit of a publication, nothing written', async () => {
    const { owner } = await world();
    const o = owner.organizationId;
    const refused = async (name: string, payload: Record<string, unknown>, field: string) => restError(await owner.admin.rest('POST', path(name), payload), 400, field);
    await refused('bad name!', body(o), 'integrationName');
    await refused('x'.repeat(101), body(o), 'integrationName');
    const name = uniqueName('limits');
    const without = (key: string) => Object.fromEntries(Object.entries(body(o)).filter(([k]) => k !== key));
    for (const key of ['title', 'description', 'scopes', 'script', 'organization']) await refused(name, without(key), key);
    await refused(name, body(o, { title: 'A' }), 'title');
    await refused(name, body(o, { title: 't'.repeat(31) }), 'title');
    await refused(name, body(o, { description: 'd'.repeat(101) }), 'description');
    await refused(name, body(o, { summary: 's'.repeat(2049) }), 'summary');
    await refused(name, body(o, { previewImages: Array(4).fill(LOGO_PNG.toString('base64')) }), 'previewImages');
    await refused(name, body(o, { previewImages: [Buffer.from('not an image').toString('base64')] }), 'previewImages[0]');
    await refused(name, body(o, { icon: Buffer.from('<html>').toString('base64') }), 'icon');
    await refused(name, body(o, { icon: 'not base64 ***' }), 'icon');
    await refused(name, body(o, { externalLinks: Array(6).fill({ url: 'https://example.com', label: 'x' }) }), 'externalLinks');
    await refused(name, body(o, { externalLinks: [{ url: 'javascript:alert(1)', label: 'x' }] }), 'externalLinks.0.url');
    await refused(name, body(o, { scopes: ['space:everything'] }), 'scopes.0');
    await refused(name, body(o, { categories: ['games'] }), 'categories.0');
    await refused(name, body(o, { target: 'everywhere' }), 'target');
    await refused(name, body(o, { visibility: 'secret' }), 'visibility');
    await refused(name, body(o, { runtime: 'v3' }), 'runtime');
    await refused(name, body(o, { secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`S${i}`, 'x'])) }), 'secrets');
    await refused(name, body(o, { secrets: { TOKEN: 12 } }), 'secrets.TOKEN');
    await refused(name, body(o, { blocks: [{ id: 'b', title: 'x' }] }), 'blocks.0.title');
    await refused(name, body(o, { script: '' }), 'script');
    expect(await h.db.integration.count({ where: { organizationId: o } })).toBe(0);
  });

  it('list: public ones and the caller\'s organizations\' own; filters; get: private ones are 404 to others', async () => {
    const { owner, other } = await world();
    const stamp = uniqueName('list');
    const pub = `${stamp}-pub`;
    const priv = `${stamp}-priv`;
    const unl = `${stamp}-unl`;
    expectOk(await owner.admin.rest('POST', path(pub), body(owner.organizationId, { visibility: 'public', categories: ['analytics'], blocks: [{ id: 'b', title: 'Block', urlUnfurl: ['https://www.figma.com/file/*'] }] })));
    expectOk(await owner.admin.rest('POST', path(priv), body(owner.organizationId, { contentSources: [{ id: 'c', title: 'Source', configuration: { componentId: 'x' } }] })));
    expectOk(await owner.admin.rest('POST', path(unl), body(owner.organizationId, { visibility: 'unlisted', title: 'Hidden gem' })));
    const names = async (caller: Caller, query = '') =>
      expectOk(await caller.rest('GET', `/v1/integrations?search=${stamp}${query}`), 200, 'listIntegrations').items.map((i: any) => i.name);
    expect(await names(owner.admin)).toEqual([priv, pub, unl]);
    expect(await names(other.admin)).toEqual([pub]);
    expect(await names(owner.admin, '&category=analytics')).toEqual([pub]);
    expect(await names(owner.admin, '&blockDomain=www.figma.com')).toEqual([pub]);
    expect(await names(owner.admin, '&blocks=true')).toEqual([pub]);
    expect(await names(owner.admin, '&blocks=false')).toEqual([priv, unl]);
    expect(await names(owner.admin, '&contentSources=true')).toEqual([priv]);
    expect(await names(owner.admin, `&owner=${other.organizationId}`)).toEqual([]);
    expect(expectOk(await owner.admin.rest('GET', `/v1/integrations?search=hidden gem`)).items.map((i: any) => i.name)).toEqual([unl]);
    const first = expectOk(await owner.admin.rest('GET', `/v1/integrations?search=${stamp}&limit=2`));
    expect(first.items).toHaveLength(2);
    expect(expectOk(await owner.admin.rest('GET', `/v1/integrations?search=${stamp}&limit=2&page=${first.next.page}`)).items.map((i: any) => i.name)).toEqual([unl]);
    restError(await owner.admin.rest('GET', '/v1/integrations?category=games'), 400, 'category');
    restError(await owner.admin.rest('GET', '/v1/integrations?blockDomain=not/valid'), 400, 'blockDomain');
    restError(await owner.admin.rest('GET', `/v1/integrations?blockDomain=${'a'.repeat(101)}`), 400, 'blockDomain');
    restError(await owner.admin.rest('GET', '/v1/integrations?limit=1001'), 400, 'limit');
    // Get: an unlisted one is found by name; a private one is 404 outside its organization.
    expect(expectOk(await other.admin.rest('GET', path(unl)), 200, 'getIntegrationByName').permissions).toEqual({ admin: false, install: true });
    restError(await other.admin.rest('GET', path(priv)), 404);
    expect(restError(await other.admin.rest('GET', path(priv)), 404)).toBe(restError(await other.admin.rest('GET', path('never-published-x')), 404).replace('never-published-x', priv));
    restError(await owner.admin.rest('GET', path('bad name!')), 400, 'integrationName');
    // A guest of the owner sees its public ones only: private ones are 403 and left out of the list.
    const guest = await buildMember(h, owner.organizationId, null);
    expect(await names(guest)).toEqual([pub]);
    restError(await guest.rest('GET', path(priv)), 403);
    restError(await guest.rest('GET', `${path(priv)}/installations`), 403);
    expectOk(await guest.rest('GET', path(pub)));
  });

  it("one installation (getIntegrationInstallationById, at its urls.location) and uninstalling it (uninstallIntegration): its organization's admins", async () => {
    const { owner, other, member } = await world();
    const name = uniqueName('single');
    expectOk(await owner.admin.rest('POST', path(name), body(owner.organizationId, { visibility: 'public' })));
    const installed = expectOk(await other.admin.rest('POST', `${path(name)}/installations`, { organization: other.organizationId }), 201);
    const one = `${path(name)}/installations/${installed.id}`;
    expect(installed.urls.location).toBe(`${h.config.apiUrl}${one.slice(3)}`);
    // Those who see it in the list: the integration's owners, and the admins of its organization.
    expect(expectOk(await other.admin.rest('GET', one), 200, 'getIntegrationInstallationById')).toEqual(installed);
    expect(expectOk(await owner.admin.rest('GET', one), 200, 'getIntegrationInstallationById').id).toBe(installed.id);
    const otherReader = await buildMember(h, other.organizationId, 'read');
    const notFound = restError(await otherReader.rest('GET', one), 404);
    expect(notFound).toBe(`Installation "${installed.id}" not found`);
    restError(await member.rest('GET', one), 404);
    restError(await other.admin.rest('GET', `${path(name)}/installations/nope`), 404);
    restError(await other.admin.rest('GET', `${path(uniqueName('missing'))}/installations/${installed.id}`), 404);
    restError(await other.admin.rest('GET', `${path(name)}/installations/${'x'.repeat(65)}`), 400, 'installationId');
    const graph = gqlData(
      await other.admin.gql('query($n: String!, $i: String!) { integrationInstallation(integrationName: $n, installationId: $i) { id target { organization } } }', { n: name, i: installed.id }),
      'integrationInstallation',
    );
    expect(graph).toEqual({ id: installed.id, target: { organization: other.organizationId } });

    // Uninstalling: the installation's organization's admins; its owners see it but it is not theirs.
    restError(await owner.admin.rest('DELETE', one), 403);
    restError(await otherReader.rest('DELETE', one), 404);
    expectOk(await other.admin.rest('DELETE', one), 204);
    restError(await other.admin.rest('GET', one), 404);
    restError(await other.admin.rest('DELETE', one), 404);
    expect(await h.db.integrationInstallation.count({ where: { integrationName: name } })).toBe(0);
    // Installing again makes a new one.
    const again = expectOk(await other.admin.rest('POST', `${path(name)}/installations`, { organization: other.organizationId }), 201);
    expect(again.id).not.toBe(installed.id);
  });

  it('installations: an admin installs it in their organization (once); its owners see all installations, others their own', async () => {
    const { owner, other, member } = await world();
    const name = uniqueName('installable');
    expectOk(await owner.admin.rest('POST', path(name), body(owner.organizationId, { visibility: 'public' })));
    const installed = expectOk(await other.admin.rest('POST', `${path(name)}/installations`, { organization: other.organizationId }), 201, 'installIntegration');
    expect(installed).toMatchObject({ status: 'active', space_selection: 'selected', site_selection: 'selected', spaces: 0, configuration: {}, externalIds: [], target: { organization: other.organizationId } });
    expect(expectOk(await other.admin.rest('POST', `${path(name)}/installations`, { organization: other.organizationId }), 201).id).toBe(installed.id);
    const own = expectOk(await owner.admin.rest('POST', `${path(name)}/installations`, { organization: owner.organizationId }), 201);
    restError(await member.rest('POST', `${path(name)}/installations`, { organization: owner.organizationId }), 403);
    restError(await other.admin.rest('POST', `${path(name)}/installations`, { organization: owner.organizationId }), 404);
    restError(await other.admin.rest('POST', `${path(name)}/installations`, {}), 400, 'organization');
    const ids = async (caller: Caller, query = '') => expectOk(await caller.rest('GET', `${path(name)}/installations${query}`)).items.map((i: any) => i.id);
    expect((await ids(owner.admin)).sort()).toEqual([installed.id, own.id].sort());
    expect(await ids(other.admin)).toEqual([installed.id]);
    expect(await ids(member)).toEqual([]);
    await h.db.integrationInstallation.update({ where: { id: installed.id }, data: { externalIds: ['ext-1'] } });
    expect(await ids(owner.admin, '?externalId=ext-1')).toEqual([installed.id]);
    // Unpublishing: its owner's admins only; installations go with it.
    restError(await other.admin.rest('DELETE', path(name)), 403);
    restError(await member.rest('DELETE', path(name)), 403);
    expectOk(await owner.admin.rest('DELETE', path(name)), 204);
    restError(await owner.admin.rest('GET', path(name)), 404);
    expect(await h.db.integrationInstallation.count({ where: { integrationName: name } })).toBe(0);
    restError(await owner.admin.rest('DELETE', path(name)), 404);
  });

  it('the GraphQL door; 401 without a token', async () => {
    const { owner } = await world();
    const name = uniqueName('gql');
    const published = gqlData(
      await owner.admin.gql('mutation($n: String!, $o: String!) { publishIntegration(integrationName: $n, title: "Via GraphQL", description: "", scopes: [], script: "x", organization: $o, visibility: "public") { name version owner { id } } }', {
        n: name,
        o: owner.organizationId,
      }),
      'publishIntegration',
    );
    expect(published).toEqual({ name, version: 1, owner: { id: owner.organizationId } });
    expect(gqlData(await owner.admin.gql(`{ integrations(search: "${name}") { count items { name } } }`), 'integrations')).toEqual({ count: 1, items: [{ name }] });
    expect(gqlData(await owner.admin.gql(`{ integration(integrationName: "${name}") { title } }`), 'integration')).toEqual({ title: 'Via GraphQL' });
    const install = gqlData(await owner.admin.gql(`mutation { installIntegration(integrationName: "${name}", organization: "${owner.organizationId}") { status } }`), 'installIntegration');
    expect(install).toEqual({ status: 'active' });
    expect(gqlData(await owner.admin.gql(`{ integrationInstallations(integrationName: "${name}") { count } }`), 'integrationInstallations').count).toBe(1);
    expect(gqlData(await owner.admin.gql(`mutation { unpublishIntegration(integrationName: "${name}") }`), 'unpublishIntegration')).toBe(true);
    for (const [method, url, payload] of [
      ['GET', '/v1/integrations'],
      ['GET', path(name)],
      ['POST', path(name), body(owner.organizationId)],
      ['DELETE', path(name)],
      ['GET', `${path(name)}/installations`],
      ['POST', `${path(name)}/installations`, { organization: owner.organizationId }],
    ] as const) {
      restError(await anonymous(h).rest(method, url, payload), 401);
    }
  });
});
