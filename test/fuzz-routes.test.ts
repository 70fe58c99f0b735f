import { describe, expect, it } from 'vitest';
import { restRoutes, schema } from '../src/schema.ts';
import { fuzzFailure, malformedRequests } from './support/fuzz.ts';
import { buildMember, buildOrganization } from './factories.ts';
import { useHarness, type Caller } from './support/harness.ts';

/**
 * Walks every REST route and every GraphQL root field with malformed input (test/support/fuzz.ts) as an
 * admin, a reader and a guest in turn, and fails on any answer ≥ 500, any REST failure without the
 * documented error body, and any GraphQL error that is internal or has no code.
 */
const h = useHarness();

describe('every route with malformed input', () => {
  it('never answers ≥ 500, and every REST failure has the error body', { timeout: 180_000 }, async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Fuzzed');
    const reader = await buildMember(h, o, 'read');
    const guest = await buildMember(h, o, null);
    const space = (await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: 'S' })).body;
    const collection = (await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'C' })).body;
    const team = (await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: [reader.userId] })).body;
    await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' });
    const link = (await admin.rest('POST', `/v1/orgs/${o}/link-invites`, { role: 'read' })).body;
    const saml = (await admin.rest('POST', `/v1/orgs/${o}/saml`, { label: 'IdP' })).body;
    const ids: Record<string, string> = {
      organizationId: o,
      spaceId: space.id,
      collectionId: collection.id,
      teamId: team.id,
      userId: reader.userId,
      inviteId: link.id,
      samlProviderId: saml.id,
      fieldName: 'owner',
      customFieldName: 'owner',
      emailDomain: 'example.com',
    };
    const callers: Caller[] = [admin, reader, guest];
    const failures: string[] = [];
    let sent = 0;
    for (const request of malformedRequests(restRoutes, schema, ids)) {
      const caller = callers[sent++ % callers.length];
      const res =
        request.kind === 'graphql'
          ? await caller.gql(request.query, request.variables)
          : request.raw !== undefined
            ? await caller.raw(request.method, request.path, request.raw)
            : await caller.rest(request.method, request.path, request.body);
      const failure = fuzzFailure(request, res.status, res.text);
      if (failure) failures.push(failure);
    }
    expect(sent).toBeGreaterThan(3000);
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
