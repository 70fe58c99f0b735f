// The official client (`GitBookAPI` from @gitbook/api) publishing and listing integrations and OpenAPI
// specs over a real HTTP listener.
import { describe, expect, it } from 'vitest';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: integrations and OpenAPI specs', () => {
  it('publishes an integration, lists it, installs it, publishes a spec and lists it', async () => {
    const ada = await s.newUser('Ada');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Builders' })).data;
    const published = await api.integrations.publishIntegration('client-made', {
      runtime: 'v2' as any,
      title: 'Client made',
      description: '',
      scopes: [],
      organization: org.id,
      previewImages: [],
      script: 'export default {};',
      visibility: 'public' as any,
    });
    expect(published.status).toBe(200);
    expect(published.data).toMatchObject({ object: 'integration', name: 'client-made', version: 1, owner: { id: org.id } });
    const listed = (await api.integrations.listIntegrations({ search: 'client-made' })).data;
    expect(listed.items.map((i) => i.name)).toEqual(['client-made']);
    expect((await api.integrations.getIntegrationByName('client-made')).data.title).toBe('Client made');
    const installed = await api.integrations.installIntegration('client-made', { organization: org.id });
    expect(installed.status).toBe(201);
    expect(installed.data).toMatchObject({ status: 'active', target: { organization: org.id } });

    const spec = await api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'petstore', { source: { text: '{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{}}' } });
    expect([200, 201]).toContain(spec.status);
    expect(spec.data).toMatchObject({ object: 'openapi-spec', slug: 'petstore', processingState: 'pending' });
    expect((await api.orgs.listOpenApiSpecs(org.id)).data.items.map((i) => i.slug)).toEqual(['petstore']);
    await expectApiError(api.integrations.publishIntegration('client-made', { title: 'x', description: '', scopes: [], organization: org.id, script: 'x' } as any), 400);
    await api.integrations.unpublishIntegration('client-made');
    await expectApiError(api.integrations.getIntegrationByName('client-made'), 404);
  });
});
