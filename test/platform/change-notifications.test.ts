// The change notifications published pages from memory depend on (src/http/page-memory.ts): a write to a
// table a page is drawn from notifies `published_changes` at commit, on the embedded database as on a
// PostgreSQL server; a write no page shows (a space's counters) does not.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { useHarness } from '../support/harness.ts';
import { buildOrganization, buildSpace } from '../factories.ts';

const h = useHarness();

async function following(database: Database) {
  const heard: number[] = [];
  let listening = false;
  const stop = database.listen('published_changes', { onNotify: () => heard.push(Date.now()), onListening: (on) => (listening = on) });
  const deadline = Date.now() + 5000;
  while (!listening && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(listening).toBe(true);
  return { heard, stop };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('change notifications', () => {
  it('on the database the tests run on: a site or a space revision notifies, a comment counter does not', async () => {
    // The harness's own database (PGlite in process, or the PostgreSQL server of TEST_DATABASE_URL).
    const { heard, stop } = await following(h.store.database);
    try {
      const { admin, organizationId: o } = await buildOrganization(h, 'Notified');
      const space = await buildSpace(admin, o, { title: 'Heard' });
      await settle();
      heard.length = 0;
      // A change request counts on its space (a trigger updates the space's counters): nothing a page shows.
      expect((await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Quiet' })).status).toBe(201);
      await settle();
      expect(heard).toEqual([]);
      expect((await admin.rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Renamed' })).status).toBe(200);
      await settle();
      expect(heard.length).toBeGreaterThan(0);
      heard.length = 0;
      expect((await admin.rest('POST', `/v1/orgs/${o}/sites`, { title: 'Docs' })).status).toBe(201);
      await settle();
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});
