// "A guest given one space through the API reads exactly that space, and nothing else, through every
// route": every read of the REST table (every GET, and the reads that take a body: site search, the URL
// lookup) is walked as a guest of an organization holding something of everything
// (test/support/fuzz-world.ts) — before the grant, with it, and after it is removed. REST and GraphQL
// share their resolvers and rules (SOFA runs each REST route as its GraphQL root field), so the table's
// routes stand for both doors.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { buildFuzzWorld } from '../support/fuzz-world.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness, type Caller } from '../support/harness.ts';
import { leaksOf, walkReads, type ReadAnswer } from '../support/read-walk.ts';

const h = useHarness();

async function world() {
  const { admin, organizationId: o } = await buildOrganization(h, 'Walked');
  const reader = await buildMember(h, o, 'read', 'Walked Reader');
  const guest = await buildMember(h, o, null, 'Walked Guest');
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await admin.rest(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const ids = await buildFuzzWorld(call, o, reader.userId);
  // A second space the guest is never given, with content whose words must never reach them.
  const secret = await buildSpace(admin, o, { title: 'Quixotic secret plans' });
  const cr = await call('POST', `/v1/spaces/${secret.id}/change-requests`, { subject: 'Secret' });
  await call('POST', `/v1/spaces/${secret.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'insert_page', title: 'Quixotic launch', document: { markdown: 'The quixotic launch date.' } }],
  });
  await call('POST', `/v1/spaces/${secret.id}/change-requests/${cr.id}/merge`);
  return { admin, guest, ids, secret, o };
}

/** Everything the guest must never read, as it appears in an answer. */
const markersOf = (w: Awaited<ReturnType<typeof world>>) => [w.secret.id, 'Quixotic', w.ids.collectionId, w.ids.teamId, w.ids.siteId, w.ids.shareLinkId];

describe('a guest given one space reads exactly that space, through every route', () => {
  it('before the grant nothing of the space opens; with it, its routes do and nothing else; removing it closes them all', { timeout: 120_000 }, async () => {
    const w = await world();
    const s = w.ids.spaceId;
    const spaceRoutes = (answers: ReadAnswer[]) => answers.filter((a) => a.path.includes('{spaceId}'));
    // (A 404 echoing an ID the caller gave, in the path or the body, tells them nothing.)
    const leaks = (answers: ReadAnswer[]) => leaksOf(answers, markersOf(w));
    const walk = (caller: Caller, ids: Record<string, string>) => walkReads(caller, ids, 'quixotic');

    const before = await walk(w.guest, w.ids);
    expect(spaceRoutes(before).filter((a) => a.status < 400).map((a) => a.url)).toEqual([]);
    expect(leaks(before)).toEqual([]);

    expectOk(await w.admin.rest('POST', `/v1/spaces/${s}/permissions`, { role: 'read', users: [w.guest.userId] }), 204);
    const granted = await walk(w.guest, w.ids);
    // The space's routes open (not every one: its access list, for instance, stays refused to guests) …
    const opened = spaceRoutes(granted).filter((a) => a.status === 200);
    expect(opened.length).toBeGreaterThan(20);
    expect(opened.map((a) => a.path)).toEqual(expect.arrayContaining(['/spaces/{spaceId}', '/spaces/{spaceId}/content', '/spaces/{spaceId}/content/page/{pageId}']));
    // … no answer anywhere names anything else of the organization …
    expect(leaks(granted)).toEqual([]);
    // … and every route of the other space answers as for an unknown one.
    const other = await walk(w.guest, { ...w.ids, spaceId: w.secret.id });
    expect(spaceRoutes(other).filter((a) => a.status !== 404).map((a) => `${a.url} → ${a.status}`)).toEqual([]);

    expectOk(await w.admin.rest('DELETE', `/v1/spaces/${s}/permissions/users/${w.guest.userId}`), 205);
    const after = await walk(w.guest, w.ids);
    expect(spaceRoutes(after).filter((a) => a.status < 400).map((a) => a.url)).toEqual([]);
    expect(leaks(after)).toEqual([]);
  });
});
