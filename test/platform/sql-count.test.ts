import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/harness.ts';
import { addFiles, addPages, buildMember, buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';
import { ROUTE_BUDGETS } from '../support/route-budgets.ts';

const h = useHarness();

/** SQL statements Prisma sends while `action` runs. */
async function countQueries(action: () => Promise<unknown>): Promise<{ count: number; result: any }> {
  const before = h.store.queries.length;
  const result = await action();
  return { count: h.store.queries.length - before, result };
}

async function orgWithMembers(n: number) {
  const org = await buildOrganization(h, `Org of ${n}`);
  const members: Caller[] = [];
  for (let i = 1; i < n; i++) members.push(await buildMember(h, org.organizationId, i % 2 ? 'read' : 'edit'));
  const team = await org.admin.rest('PUT', `/v1/orgs/${org.organizationId}/teams`, {
    title: 'Everyone',
    members: members.map((m) => m.userId),
  });
  return { ...org, teamId: team.body.id as string };
}

describe('SQL statements per request do not grow with the list (no N+1)', () => {
  it('members list: 5 and 50 members cost the same (REST and GraphQL)', async () => {
    const small = await orgWithMembers(5);
    const large = await orgWithMembers(50);
    const listRest = (o: typeof small) => o.admin.rest('GET', `/v1/orgs/${o.organizationId}/members?limit=100`);
    const s = await countQueries(() => listRest(small));
    const l = await countQueries(() => listRest(large));
    expect(s.result.body.items).toHaveLength(5);
    expect(l.result.body.items).toHaveLength(50);
    expect(l.result.body.items.every((m: any) => m.user.email && m.teams >= 0)).toBe(true);
    expect(l.count).toBe(s.count);

    const query = `query($id: String!) { organizationMembers(organizationId: $id, limit: 100) { items { id role teams spaces user { email displayName } } } }`;
    const gs = await countQueries(() => small.admin.gql(query, { id: small.organizationId }));
    const gl = await countQueries(() => large.admin.gql(query, { id: large.organizationId }));
    expect(gl.result.body.data.organizationMembers.items).toHaveLength(50);
    expect(gl.count).toBe(gs.count);
  });

  it('team members list: 5 and 50 members cost the same', async () => {
    const small = await orgWithMembers(5);
    const large = await orgWithMembers(50);
    const list = (o: typeof small) => o.admin.rest('GET', `/v1/orgs/${o.organizationId}/teams/${o.teamId}/members?limit=100`);
    const s = await countQueries(() => list(small));
    const l = await countQueries(() => list(large));
    expect(l.result.body.items).toHaveLength(49);
    expect(l.result.body.items[0].organization.user.email).toEqual(expect.any(String));
    expect(l.count).toBe(s.count);
  });

  it("a graph query over many organizations' members and teams does not run one query per organization", async () => {
    const admin = (await buildOrganization(h, 'Hub')).admin;
    const create = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const org = await admin.rest('POST', '/v1/orgs', { title: `Org ${i}` });
        await buildMember(h, org.body.id, 'read');
        await admin.rest('PUT', `/v1/orgs/${org.body.id}/teams`, { title: 'T' });
      }
    };
    const query = `{ organizations(limit: 20) { count items { id permissions { admin } members(limit: 10) { count items { role user { email } } } teams(limit: 10) { count items { title members } } } } }`;
    await create(2);
    const few = await countQueries(() => admin.gql(query));
    await create(8);
    const many = await countQueries(() => admin.gql(query));
    expect(few.result.body.errors).toBeUndefined();
    expect(many.result.body.data.organizations.count).toBe(11);
    expect(many.result.body.data.organizations.items.every((o: any) => o.members.count === 2 && o.teams.count >= 1 || o.members.count === 1)).toBe(true);
    expect(many.count).toBe(few.count);
  });
});

describe('statement budget per GET route, and per read sent with a body (token, access, page, count)', () => {
  it('every GET route stays within its budget, for an admin, a reader and a guest, with full pages', { timeout: 120_000 }, async () => {
    const { admin, organizationId: o } = await buildOrganization(h, 'Budget');
    const reader = await buildMember(h, o, 'read');
    const guest = await buildMember(h, o, null);
    const others = [] as Caller[];
    for (let i = 0; i < 6; i++) others.push(await buildMember(h, o, i % 2 ? 'edit' : 'read'));
    const team = (await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: [reader.userId, guest.userId, ...others.map((m) => m.userId)] })).body;
    await admin.rest('PUT', `/v1/orgs/${o}/teams`, { title: 'T2', members: [reader.userId] });
    const parent = (await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'Parent' })).body;
    const collection = (await admin.rest('POST', `/v1/orgs/${o}/collections`, { title: 'C', parent: parent.id })).body;
    await admin.rest('PATCH', `/v1/collections/${parent.id}`, { defaultLevel: 'comment' });
    const spaces = [] as any[];
    for (let i = 0; i < 8; i++) {
      h.clock.advance(10);
      spaces.push((await admin.rest('POST', `/v1/orgs/${o}/spaces`, { title: `S${i}`, parent: i % 2 ? collection.id : undefined })).body);
    }
    const space = spaces[1];
    await h.db.spaceUserGrant.create({ data: { spaceId: space.id, organizationId: o, userId: guest.userId, role: 'edit' } });
    await h.db.spaceTeamGrant.create({ data: { spaceId: spaces[2].id, teamId: team.id, role: 'review' } });
    // Grants on collections reach the spaces inside (the guest reads the collection's spaces through them).
    await h.db.collectionUserGrant.create({ data: { collectionId: parent.id, organizationId: o, userId: guest.userId, role: 'read' } });
    await h.db.collectionTeamGrant.create({ data: { collectionId: collection.id, teamId: team.id, role: 'comment' } });
    await admin.rest('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' });
    await admin.rest('PATCH', `/v1/spaces/${space.id}/custom-fields`, { values: { owner: { value: 'x' } } });
    await addPages(h.db, space.revision, [{ id: 'budget-page', title: 'Budget', path: 'budget' }, { id: 'child', title: 'Child', path: 'budget/child' }]);
    for (let i = 0; i < 3; i++) await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `CR ${i}` });
    const changeRequest = (await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Budget' })).body;
    await admin.rest('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { status: 'open' });
    const comments = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments`;
    const comment = (await admin.rest('POST', comments, { body: { markdown: 'Budget' }, page: 'budget-page' })).body;
    for (let i = 0; i < 3; i++) await admin.rest('POST', comments, { body: { markdown: `Other ${i}` } });
    const reply = (await admin.rest('POST', `${comments}/${comment.id}/replies`, { body: { markdown: 'Reply' } })).body;
    await admin.rest('PUT', `${comments}/${comment.id}`, { addedReactions: ['👍'] });
    await admin.rest('PUT', `${comments}/${comment.id}/replies/${reply.id}`, { addedReactions: ['👍'] });
    const crPath = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
    await admin.rest('POST', `${crPath}/requested-reviewers`, { users: [reader.userId, guest.userId, ...others.map((m) => m.userId)] });
    const reviewers = [reader, guest, ...others];
    await Promise.all(reviewers.map((m) => h.db.spaceUserGrant.upsert({ where: { spaceId_userId: { spaceId: space.id, userId: m.userId } }, create: { spaceId: space.id, organizationId: o, userId: m.userId, role: 'review' }, update: { role: 'review' } })));
    const reviews: any[] = [];
    for (const [i, m] of reviewers.entries()) {
      reviews.push((await m.rest('POST', `${crPath}/reviews`, { status: i % 2 ? 'approved' : 'changes-requested', comment: i % 3 ? undefined : { markdown: `Review ${i}` } })).body);
    }
    const review = reviews[0]; // `{rw}`: a review with a comment (whose loaders count)
    // Back to the grants the other routes are measured with.
    await h.db.spaceUserGrant.deleteMany({ where: { spaceId: space.id, userId: { in: [reader, ...others].map((m) => m.userId) } } });
    await h.db.spaceUserGrant.update({ where: { spaceId_userId: { spaceId: space.id, userId: guest.userId } }, data: { role: 'edit' } });
    const spaceComments = `/v1/spaces/${space.id}/comments`;
    const spaceComment = (await admin.rest('POST', spaceComments, { body: { markdown: 'Budget' }, page: 'budget-page' })).body;
    for (const author of [admin, others[1], others[3]]) await author.rest('POST', spaceComments, { body: { markdown: 'Other' } });
    const spaceReply = (await admin.rest('POST', `${spaceComments}/${spaceComment.id}/replies`, { body: { markdown: 'Reply' } })).body;
    await admin.rest('PUT', `${spaceComments}/${spaceComment.id}`, { addedReactions: ['👍'] });
    await addFiles(h.db, space.revision, ['budget-file', 'other-file'].map((id) => ({ id, name: `${id}.txt`, contentType: 'text/plain', bytes: new Uint8Array(Buffer.from(id)) })));
    const link = (await admin.rest('POST', `/v1/orgs/${o}/link-invites`, { role: 'read' })).body;
    const site = (await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Budget site', spaces: spaces.slice(0, 4).map((s) => s.id) })).body;
    const siteSections = (await admin.rest('GET', `/v1/orgs/${o}/sites/${site.id}/sections`)).body.items;
    await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/section-groups`, { title: 'G', sections: [siteSections[1].id, siteSections[2].id] });
    await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/section-groups`, { title: 'H', sections: [siteSections[3].id] });
    for (const name of ['a', 'b']) await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/share-links`, { name });
    await admin.rest('PUT', `/v1/orgs/${o}/sites/${site.id}/adaptive-schema`, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } });
    await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/permissions`, { role: 'edit', users: others.map((m) => m.userId), teams: [team.id] });
    const budgetSiteSpace = siteSections.flatMap((section: any) => section.siteSpaces).find((siteSpace: any) => siteSpace.space.id === space.id);
    for (const source of ['/budget', '/other']) {
      await admin.rest('POST', `/v1/orgs/${o}/sites/${site.id}/redirects`, { source, destination: { kind: 'site-page', siteSpaceId: budgetSiteSpace.id, pageId: 'budget-page' } });
    }
    const saml = (await admin.rest('POST', `/v1/orgs/${o}/saml`, { label: 'IdP' })).body;
    await admin.rest('POST', `/v1/orgs/${o}/invites`, { emails: [reader.email.replace('@', '+x@'), 'someone@example.com'] });
    const path = (route: string) =>
      route
        .slice(route.indexOf(' ') + 1)
        .replace('{o}', o)
        .replace('{u}', reader.userId)
        .replace('{t}', team.id)
        .replace('{c}', collection.id)
        .replace('{st}', site.id)
        .replace('{ss}', budgetSiteSpace.id)
        .replace('{spaceUrl}', encodeURIComponent(space.urls.app))
        .replace('{s}', space.id)
        .replace('{rv}', space.revision)
        .replace('{pg}', 'budget-page')
        .replace('{fl}', 'budget-file')
        .replace('{cr}', changeRequest.id)
        .replace('{cm}', comment.id)
        .replace('{rp}', reply.id)
        .replace('{rw}', review.id)
        .replace('{scm}', spaceComment.id)
        .replace('{srp}', spaceReply.id)
        .replace('{f}', 'owner')
        .replace('{i}', link.id)
        .replace('{p}', saml.id)
        .replace('{domain}', 'example.com');
    const measured: Record<string, number> = {};
    for (const [route, budget] of Object.entries(ROUTE_BUDGETS)) {
      let worst = 0;
      for (const caller of [admin, reader, guest]) {
        // Prisma reports a statement in an event that may come a moment after its result: let the previous
        // request's last events arrive before counting, and this request's before stopping.
        const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
        await settle();
        const before = h.store.queries.length;
        const { count, result } = await countQueries(async () => {
          // A read sent with a body (site search) is a POST of `{ "query": "budget" }`.
          const answer = route.startsWith('POST ')
            ? await caller.rest('POST', `${path(route)}?limit=100`, { query: 'budget' })
            : await caller.rest('GET', `${path(route)}${route.endsWith('s') ? '?limit=100' : ''}`);
          await settle();
          return answer;
        });
        if (count > budget && process.env.SQL_BUDGET_DEBUG) console.log(route, h.store.queries.slice(before).map((q) => q.slice(0, 300)));
        if (caller === admin) expect(result.status, `${route}: ${result.text}`).toBe(200);
        worst = Math.max(worst, count);
      }
      measured[route] = worst;
    }
    console.table(Object.entries(ROUTE_BUDGETS).map(([route, budget]) => ({ route, budget, measured: measured[route] })));
    const over = Object.entries(ROUTE_BUDGETS).filter(([route, budget]) => measured[route] > budget);
    expect(over.map(([route]) => `${route}: ${measured[route]}`)).toEqual([]);
  });
});
