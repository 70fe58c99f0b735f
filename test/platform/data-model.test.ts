import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { collatedColumns, collationFixes } from '../../src/db/collations.ts';
import { applyMigrations, pgliteSession, pgSession, type SqlSession } from '../../src/db/migrate.ts';
import { createPglite } from '../../src/db/pglite.ts';
import { newId } from '../../src/lib/ids.ts';
import { contentHash } from '../../src/modules/content/store/content-hash.ts';
import { purgeExpired } from '../../src/modules/spaces/space.lifecycle.ts';
import { buildMember, buildOrganization } from '../factories.ts';
import { useHarness } from '../support/harness.ts';
import { pageCount, pageRow, writePageRows } from '../support/content-rows.ts';
import { fileCodec, pageCodec } from '../../src/modules/content/index.ts';
import { sequenceFromNodes, type StoredNode } from '../../src/modules/content/store/content-tree.ts';

const h = useHarness();
const ROOT = path.resolve(import.meta.dirname, '../..');
const MIGRATIONS = path.join(ROOT, 'prisma', 'migrations');
const DAY = 24 * 60 * 60 * 1000;

interface ForeignKey {
  table: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  onDelete: string;
}

const ON_DELETE: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

async function foreignKeys(): Promise<ForeignKey[]> {
  const rows = await h.db.$queryRawUnsafe<{ table: string; columns: string[]; references: string; referencedColumns: string[]; onDelete: string }[]>(`
    SELECT src.relname::text AS "table", dst.relname::text AS "references", c.confdeltype::text AS "onDelete",
      (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS "columns",
      (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS "referencedColumns"
    FROM pg_constraint c
    JOIN pg_class src ON src.oid = c.conrelid
    JOIN pg_class dst ON dst.oid = c.confrelid
    JOIN pg_namespace ns ON ns.oid = src.relnamespace
    WHERE c.contype = 'f' AND ns.nspname = current_schema()`);
  return rows.map((r) => ({ ...r, onDelete: ON_DELETE[r.onDelete] }));
}

describe('foreign keys', () => {
  // Every reference that had no foreign key before, with the delete behaviour chosen for it.
  const expected: ForeignKey[] = [
    { table: 'Space', columns: ['revisionId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'ChangeRequest', columns: ['revisionId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'ChangeRequest', columns: ['revisionInitialId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'ChangeRequest', columns: ['revisionMergedAncestorId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'ChangeRequest', columns: ['revisionMergedId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'ChangeRequest', columns: ['createdById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'Comment', columns: ['postedById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'Comment', columns: ['resolvedById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'Comment', columns: ['targetRevisionId'], references: 'Revision', referencedColumns: ['id'], onDelete: 'NoAction' },
    { table: 'CommentReaction', columns: ['userId'], references: 'User', referencedColumns: ['id'], onDelete: 'Cascade' },
    { table: 'Revision', columns: ['createdById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'Organization', columns: ['defaultContentSiteId'], references: 'Site', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'Invite', columns: ['invitedById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    { table: 'LinkInvite', columns: ['createdById'], references: 'User', referencedColumns: ['id'], onDelete: 'SetNull' },
    // Content trees are shared by revisions: a revision never deletes their nodes.
    { table: 'Revision', columns: ['pageTree'], references: 'ContentNode', referencedColumns: ['hash'], onDelete: 'NoAction' },
    { table: 'Revision', columns: ['fileTree'], references: 'ContentNode', referencedColumns: ['hash'], onDelete: 'NoAction' },
    // A document's links are derived from its text: they go with it.
    { table: 'DocumentLink', columns: ['documentHash'], references: 'Document', referencedColumns: ['hash'], onDelete: 'Cascade' },
  ];

  it('exist for every reference, with the chosen delete behaviour', async () => {
    const keys = await foreignKeys();
    for (const key of expected) expect(keys, `${key.table}(${key.columns})`).toContainEqual(key);
  });

  it('every column named like a reference (…Id) of a table is covered by a foreign key', async () => {
    // Not foreign keys, on purpose: IDs of things outside the database (document nodes, SAML entity and
    // assertion IDs); the page ID of a comment (checked in its revision's content tree when posted); an
    // assertion use's provider (kept after the provider is deleted, until the assertion expires); a SAML
    // provider's default team (reads as absent once the team is deleted, see saml-provider.schema.ts);
    // the target of a document's link, a page or file ID that names no single row
    // (IDs are the same in every revision; whether the target exists is asked of the revision read);
    // the search index's page (an ID of the space's active revision, replaced with it) and the revision
    // it reflects (a marker compared with the space's revision, never followed); the page a site redirect
    // leads to and the page a former path leads to (page IDs of every revision, asked of the content read).
    const exempt = new Set([
      'SearchPage.pageId',
      'Space.searchRevisionId',
      'DocumentLink.targetPageId',
      'DocumentLink.targetFileId',
      'Comment.targetNodeId',
      'Comment.targetPageId',
      'SamlAssertionUse.assertionId',
      'SamlAssertionUse.providerId',
      'SamlProvider.entityID',
      'SamlProvider.defaultTeamId',
      'SiteRedirect.pageId',
      'PagePathRedirect.pageId',
    ]);
    const columns = await h.db.$queryRawUnsafe<{ table: string; column: string }[]>(`
      SELECT table_name::text AS "table", column_name::text AS "column" FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name ~ 'I[dD]$' AND column_name <> 'id' AND table_name <> '_prisma_migrations'`);
    const covered = new Set((await foreignKeys()).flatMap((k) => k.columns.map((c) => `${k.table}.${c}`)));
    const uncovered = columns.map((c) => `${c.table}.${c.column}`).filter((c) => !covered.has(c) && !exempt.has(c));
    expect(uncovered).toEqual([]);
  });

  it('deleting a user keeps what they made: invites and invite links stay, their author becomes NULL', async () => {
    const { organizationId } = await buildOrganization(h, 'Inviters');
    const inviter = await buildMember(h, organizationId, 'admin');
    const invited = await inviter.rest('POST', `/v1/orgs/${organizationId}/invites`, { emails: [`someone.${newId()}@example.com`] });
    expect(invited.status, invited.text).toBe(200);
    const link = await inviter.rest('POST', `/v1/orgs/${organizationId}/link-invites`, { role: 'read' });
    expect(link.status, link.text).toBe(201);

    await h.db.user.delete({ where: { id: inviter.userId } });

    const invite = await h.db.invite.findFirstOrThrow({ where: { organizationId, userId: invited.body.users[0] } });
    expect(invite.invitedById).toBeNull();
    expect((await h.db.linkInvite.findUniqueOrThrow({ where: { id: link.body.id } })).createdById).toBeNull();
  });

  it('a space with change requests and comments on its pages is purged whole; a revision in use cannot go alone', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Purged');
    const space = await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Doomed' });
    expect(space.status, space.text).toBe(201);
    const main = space.body.revision as string;
    const draft = newId();
    await h.db.revision.create({ data: { id: draft, spaceId: space.body.id, createdById: admin.userId, type: 'update' } });
    for (const revisionId of [main, draft]) await writePageRows(h.db, revisionId, [pageRow({ id: 'page1', title: 'Intro', path: 'intro' })]);
    const changeRequest = await h.db.changeRequest.create({
      data: { id: newId(), spaceId: space.body.id, number: 1, createdById: admin.userId, revisionId: draft, revisionInitialId: main },
    });
    const comment = await h.db.comment.create({
      data: {
        id: newId(),
        spaceId: space.body.id,
        changeRequestId: changeRequest.id,
        postedById: admin.userId,
        markdown: 'Nice',
        targetRevisionId: draft,
        targetPageId: 'page1',
      },
    });
    await h.db.commentReaction.create({ data: { commentId: comment.id, userId: admin.userId, emoji: '1f44d' } });

    // Not alone: the space's active revision, nor one a change request works on.
    await expect(h.db.revision.delete({ where: { id: main } })).rejects.toThrow();
    await expect(h.db.revision.delete({ where: { id: draft } })).rejects.toThrow();
    // A comment's page is checked when it is posted (pages live in content trees, which no foreign key
    // reaches): test/comments/change-request-comments.test.ts.

    expect((await admin.rest('DELETE', `/v1/spaces/${space.body.id}`)).status).toBe(204);
    h.clock.advance(8 * DAY);
    expect((await purgeExpired(h.db, h.clock.now())).spaces).toBeGreaterThanOrEqual(1);
    expect(await h.db.revision.count({ where: { spaceId: space.body.id } })).toBe(0);
    expect(await h.db.changeRequest.count({ where: { id: changeRequest.id } })).toBe(0);
    expect(await h.db.comment.count({ where: { id: comment.id } })).toBe(0);
    expect(await pageCount(h.db, main)).toBe(0);
    expect(await pageCount(h.db, draft)).toBe(0);
  });
});

describe('enums', () => {
  // GitBook's values (node_modules/@gitbook/api/spec/openapi.json), spelled as in JSON.
  const expected: Record<string, string[]> = {
    OrganizationType: ['business', 'community'],
    BillingProduct: ['free_2024', 'plus_2024', 'pro_2024', 'enterprise_2024', 'community_2024', 'free', 'plus', 'pro', 'internal'],
    SiteType: ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'],
    PageType: ['document', 'group', 'link', 'computed'],
    RevisionType: ['edits', 'merge', 'rollback', 'update', 'computed'],
  };

  it("hold GitBook's values", async () => {
    const rows = await h.db.$queryRawUnsafe<{ type: string; labels: string[] }[]>(`
      SELECT t.typname::text AS "type", array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS "labels"
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`);
    const actual = Object.fromEntries(rows.map((r) => [r.type, r.labels]));
    for (const [type, labels] of Object.entries(expected)) expect(actual[type], type).toEqual(labels);
    const spec = JSON.parse(await readFile(path.join(ROOT, 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8')).components.schemas;
    expect(spec.OrganizationType.enum).toEqual(expected.OrganizationType);
    expect(spec.BillingProduct.enum).toEqual(expected.BillingProduct);
    expect(spec.SiteType.enum).toEqual(expected.SiteType);
  });

  it('the columns reject an unknown value', async () => {
    const { admin, organizationId } = await buildOrganization(h, 'Typed');
    const space = await admin.rest('POST', `/v1/orgs/${organizationId}/spaces`, {});
    const revisionId = space.body.revision as string;
    const site = await h.db.site.create({ data: { id: newId(), organizationId, title: 'Docs' } });
    const updates: [string, string, string][] = [
      ['Organization', 'type', organizationId],
      ['Organization', 'plan', organizationId],
      ['Site', 'type', site.id],
      ['Revision', 'type', revisionId],
    ];
    for (const [table, column, id] of updates) {
      await expect(h.db.$executeRawUnsafe(`UPDATE "${table}" SET "${column}" = 'unknown-value' WHERE "id" = $1`, id), `${table}.${column}`).rejects.toThrow(
        /invalid input value for enum/,
      );
    }
    // The JSON spelling is what the database holds; Prisma's name for it has "_" instead of "-".
    await h.db.site.update({ where: { id: site.id }, data: { type: 'legacy_basic' } });
    expect(await h.db.$queryRawUnsafe(`SELECT "type"::text AS "type" FROM "Site" WHERE "id" = $1`, site.id)).toEqual([{ type: 'legacy-basic' }]);
    // Valid values are served as before.
    await h.db.organization.update({ where: { id: organizationId }, data: { type: 'community', plan: 'pro_2024' } });
    expect((await admin.rest('GET', `/v1/orgs/${organizationId}`)).body).toMatchObject({ type: 'community', plan: 'pro_2024' });
  });
});

describe('collation of order keys', () => {
  it('every column marked `Collation "C"` in schema.prisma has it, and every `position` column is marked', async () => {
    const marked = collatedColumns(await readFile(path.join(ROOT, 'prisma', 'schema.prisma'), 'utf8'));
    expect(marked.map((c) => `${c.table}.${c.column}`).sort()).toEqual(
      ['Collection.position', 'SiteSection.position', 'SiteSectionGroup.position', 'Space.position'],
    );
    const rows = await h.db.$queryRawUnsafe<{ table: string; column: string; collation: string | null }[]>(`
      SELECT table_name::text AS "table", column_name::text AS "column", collation_name::text AS "collation"
      FROM information_schema.columns WHERE table_schema = current_schema()`);
    const collationOf = new Map(rows.map((r) => [`${r.table}.${r.column}`, r.collation]));
    for (const c of marked) expect(collationOf.get(`${c.table}.${c.column}`), `${c.table}.${c.column}`).toBe(c.collation);
    const positions = rows.filter((r) => r.column === 'position').map((r) => `${r.table}.${r.column}`);
    expect(positions.sort()).toEqual(marked.map((c) => `${c.table}.${c.column}`).sort());
  });

  it('a generated migration that creates or retypes a marked column gets the collation back', () => {
    const schema = `model Thing {
  id String @id
  /// Collation "C": byte order.
  /// More words.
  order String @map("sortKey")
  /// Not a marker.
  other String
  @@map("things")
}
model Plain {
  /// Collation "C"
  key String
}`;
    const columns = collatedColumns(schema);
    expect(columns).toEqual([
      { table: 'things', column: 'sortKey', collation: 'C' },
      { table: 'Plain', column: 'key', collation: 'C' },
    ]);
    const created = `-- CreateTable
CREATE TABLE "things" (
    "id" TEXT NOT NULL,
    "sortKey" VARCHAR(64) NOT NULL,
    "other" TEXT NOT NULL
);

-- AlterTable
ALTER TABLE "Plain" ADD COLUMN     "key" TEXT NOT NULL DEFAULT '';
`;
    expect(collationFixes(created, columns)).toEqual([
      'ALTER TABLE "things" ALTER COLUMN "sortKey" TYPE VARCHAR(64) COLLATE "C";',
      'ALTER TABLE "Plain" ALTER COLUMN "key" TYPE TEXT COLLATE "C";',
    ]);
    const retyped = `-- AlterTable
ALTER TABLE "things" ADD COLUMN "x" TEXT,
ALTER COLUMN "sortKey" SET DATA TYPE TEXT;
`;
    expect(collationFixes(retyped, columns)).toEqual(['ALTER TABLE "things" ALTER COLUMN "sortKey" TYPE TEXT COLLATE "C";']);
    // Other tables' columns of the same name, and other changes to the marked column, need nothing.
    expect(collationFixes(`ALTER TABLE "other" ALTER COLUMN "sortKey" SET DATA TYPE TEXT;\nALTER TABLE "things" ALTER COLUMN "sortKey" SET DEFAULT '';\n`, columns)).toEqual([]);
  });
});

// ---- The migration adding the foreign keys and enums, on a database holding data ----

const MIGRATION = '20261122215347_data_model_integrity';

/** A bare database (no migrations applied) on the run's database server, with a session to it. */
async function bareDatabase(): Promise<{ session: SqlSession; close(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await createPglite();
    return { session: pgliteSession(db), close: () => db.close() };
  }
  const name = `dp_test_migration_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    session: pgSession(client),
    close: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe(`migration ${MIGRATION}`, () => {
  it('applies on a database holding data, clearing references that point nowhere and values outside the enums', async () => {
    const before = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const { session, close } = await bareDatabase();
    try {
      for (const entry of await readdir(MIGRATIONS, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name < MIGRATION) await cp(path.join(MIGRATIONS, entry.name), path.join(before, entry.name), { recursive: true });
      }
      await applyMigrations(session, before);
      await session.exec(`
        INSERT INTO "User" ("id", "email", "displayName", "updatedAt") VALUES ('u1', 'u1@example.com', 'U1', now());
        INSERT INTO "Organization" ("id", "title", "type", "plan", "defaultContentSiteId", "updatedAt") VALUES
          ('o1', 'Odd', 'weird', 'gold', 'no-such-site', now()),
          ('o2', 'Fine', 'community', 'pro_2024', 'site1', now());
        INSERT INTO "Site" ("id", "organizationId", "title", "type", "updatedAt") VALUES
          ('site1', 'o2', 'Docs', 'mega', now()), ('site2', 'o2', 'Old', 'legacy-premium', now());
        INSERT INTO "Space" ("id", "organizationId", "position", "revisionId", "updatedAt") VALUES
          ('s1', 'o1', 'a0', 'r1', now()), ('s2', 'o1', 'a1', 'no-such-revision', now()), ('s3', 'o1', 'a2', 'r1', now());
        INSERT INTO "Revision" ("id", "spaceId", "type", "createdById") VALUES
          ('r1', 's1', 'weird', 'ghost'), ('r2', 's1', 'merge', 'u1');
        INSERT INTO "Page" ("revisionId", "id", "type", "title", "slug", "path", "updatedAt") VALUES
          ('r1', 'p1', 'sheet', 'P1', 'p1', 'p1', now()), ('r1', 'p2', 'group', 'P2', 'p2', 'p2', now());
        INSERT INTO "ChangeRequest" ("id", "spaceId", "number", "createdById", "revisionId", "revisionInitialId",
            "revisionMergedAncestorId", "revisionMergedId", "updatedAt") VALUES
          ('c1', 's1', 1, 'ghost', 'r2', 'r1', 'no-such-revision', 'r1', now()),
          ('c2', 's1', 2, 'u1', 'no-such-revision', 'r1', NULL, NULL, now());
        INSERT INTO "Comment" ("id", "spaceId", "changeRequestId", "postedById", "resolvedById", "markdown", "targetPageId") VALUES
          ('m1', 's1', 'c1', 'ghost', 'u1', 'on a page the change request lacks', 'p1'),
          ('m2', 's1', NULL, 'u1', 'ghost', 'on the main content', 'p1'),
          ('m3', 's1', 'c2', 'u1', NULL, 'in a broken change request', NULL);
        INSERT INTO "CommentReaction" ("commentId", "userId", "emoji") VALUES ('m2', 'u1', 'a'), ('m2', 'ghost', 'b');
        INSERT INTO "Invite" ("id", "organizationId", "userId", "invitedById") VALUES ('i1', 'o1', 'u1', 'ghost');
        INSERT INTO "LinkInvite" ("id", "organizationId", "createdById") VALUES ('l1', 'o1', 'ghost'), ('l2', 'o1', 'u1');
      `);

      // Up to this migration: later ones reshape what it is checked on (pages became content trees).
      await cp(path.join(MIGRATIONS, MIGRATION), path.join(before, MIGRATION), { recursive: true });
      const applied = await applyMigrations(session, before);
      expect(applied).toContain(MIGRATION);

      const rows = async (sql: string) => (await session.query(sql)).rows;
      expect(await rows(`SELECT "id", "type"::text, "plan"::text, "defaultContentSiteId" FROM "Organization" ORDER BY "id"`)).toEqual([
        { id: 'o1', type: 'business', plan: 'free_2024', defaultContentSiteId: null },
        { id: 'o2', type: 'community', plan: 'pro_2024', defaultContentSiteId: 'site1' },
      ]);
      expect(await rows(`SELECT "id", "type"::text FROM "Site" ORDER BY "id"`)).toEqual([
        { id: 'site1', type: 'basic' },
        { id: 'site2', type: 'legacy-premium' },
      ]);
      expect(await rows(`SELECT "id", "revisionId" FROM "Space" ORDER BY "id"`)).toEqual([
        { id: 's1', revisionId: 'r1' },
        { id: 's2', revisionId: null },
        { id: 's3', revisionId: null },
      ]);
      expect(await rows(`SELECT "id", "type"::text, "createdById" FROM "Revision" ORDER BY "id"`)).toEqual([
        { id: 'r1', type: 'edits', createdById: null },
        { id: 'r2', type: 'merge', createdById: 'u1' },
      ]);
      expect(await rows(`SELECT "id", "type"::text FROM "Page" ORDER BY "id"`)).toEqual([
        { id: 'p1', type: 'document' },
        { id: 'p2', type: 'group' },
      ]);
      expect(await rows(`SELECT "id", "createdById", "revisionMergedAncestorId", "revisionMergedId" FROM "ChangeRequest" ORDER BY "id"`)).toEqual([
        { id: 'c1', createdById: null, revisionMergedAncestorId: null, revisionMergedId: 'r1' },
      ]);
      expect(await rows(`SELECT "id", "postedById", "resolvedById", "targetRevisionId", "targetPageId" FROM "Comment" ORDER BY "id"`)).toEqual([
        { id: 'm1', postedById: null, resolvedById: 'u1', targetRevisionId: null, targetPageId: 'p1' },
        { id: 'm2', postedById: 'u1', resolvedById: null, targetRevisionId: 'r1', targetPageId: 'p1' },
      ]);
      expect(await rows(`SELECT "userId" FROM "CommentReaction"`)).toEqual([{ userId: 'u1' }]);
      expect(await rows(`SELECT "invitedById" FROM "Invite"`)).toEqual([{ invitedById: null }]);
      expect(await rows(`SELECT "id", "createdById" FROM "LinkInvite" ORDER BY "id"`)).toEqual([
        { id: 'l1', createdById: null },
        { id: 'l2', createdById: 'u1' },
      ]);
      // The order keys kept their collation through the migration.
      expect(await rows(`SELECT collation_name::text AS "collation" FROM information_schema.columns WHERE table_name = 'Page' AND column_name = 'position'`)).toEqual([
        { collation: 'C' },
      ]);
    } finally {
      await close();
      await rm(before, { recursive: true, force: true });
    }
  });
});

// ---- The migration making page bodies and file bytes content-addressed ----

const CONTENT_MIGRATION = '20261123021037_content_addressed_documents';

describe(`migration ${CONTENT_MIGRATION}`, () => {
  it('moves page bodies and file bytes to shared rows under the hash the application computes', async () => {
    const before = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const { session, close } = await bareDatabase();
    try {
      for (const entry of await readdir(MIGRATIONS, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name < CONTENT_MIGRATION) await cp(path.join(MIGRATIONS, entry.name), path.join(before, entry.name), { recursive: true });
      }
      await applyMigrations(session, before);
      await session.exec(`
        INSERT INTO "Organization" ("id", "title", "updatedAt") VALUES ('o1', 'Org', now());
        INSERT INTO "Space" ("id", "organizationId", "position", "updatedAt") VALUES ('s1', 'o1', 'a0', now());
        INSERT INTO "Revision" ("id", "spaceId") VALUES ('r1', 's1'), ('r2', 's1');
        INSERT INTO "Page" ("revisionId", "id", "type", "title", "slug", "path", "markdown", "updatedAt") VALUES
          ('r1', 'p1', 'document', 'P1', 'p1', 'p1', '# Héllo 👋', now()),
          ('r2', 'p1', 'document', 'P1', 'p1', 'p1', '# Héllo 👋', now()),
          ('r2', 'p2', 'document', 'P2', 'p2', 'p2', '', now()),
          ('r2', 'g1', 'group', 'G1', 'g1', 'g1', '', now());
        INSERT INTO "File" ("revisionId", "id", "name", "contentType", "size", "content") VALUES
          ('r1', 'f1', 'a.bin', 'application/octet-stream', 3, '\\x010203'),
          ('r2', 'f1', 'a.bin', 'application/octet-stream', 3, '\\x010203'),
          ('r2', 'f2', 'empty.txt', 'text/plain', 0, NULL);
      `);
      await cp(path.join(MIGRATIONS, CONTENT_MIGRATION), path.join(before, CONTENT_MIGRATION), { recursive: true });
      expect(await applyMigrations(session, before)).toContain(CONTENT_MIGRATION);

      const rows = async (sql: string) => (await session.query(sql)).rows;
      const hello = contentHash('# Héllo 👋');
      expect(await rows(`SELECT "revisionId", "id", "documentHash" FROM "Page" ORDER BY "revisionId", "id"`)).toEqual([
        { revisionId: 'r1', id: 'p1', documentHash: hello },
        { revisionId: 'r2', id: 'g1', documentHash: null },
        { revisionId: 'r2', id: 'p1', documentHash: hello },
        { revisionId: 'r2', id: 'p2', documentHash: contentHash('') },
      ]);
      // One row per distinct body, shared by the revisions.
      expect(await rows(`SELECT "hash", "markdown" FROM "Document" ORDER BY "markdown"`)).toEqual([
        { hash: contentHash(''), markdown: '' },
        { hash: hello, markdown: '# Héllo 👋' },
      ]);
      const bytes = contentHash(new Uint8Array([1, 2, 3]));
      expect(await rows(`SELECT "revisionId", "id", "blobHash" FROM "File" ORDER BY "revisionId", "id"`)).toEqual([
        { revisionId: 'r1', id: 'f1', blobHash: bytes },
        { revisionId: 'r2', id: 'f1', blobHash: bytes },
        { revisionId: 'r2', id: 'f2', blobHash: contentHash(new Uint8Array()) },
      ]);
      expect(await rows(`SELECT "hash", "size" FROM "FileBlob" ORDER BY "size"`)).toEqual([
        { hash: contentHash(new Uint8Array()), size: 0 },
        { hash: bytes, size: 3 },
      ]);
    } finally {
      await close();
      await rm(before, { recursive: true, force: true });
    }
  });
});

// ---- The migration making pages and files content trees ----

const TREES_MIGRATION = '20261126203303_content_trees';

describe(`migration ${TREES_MIGRATION}`, () => {
  it("carries every revision's pages and files into trees the application reads, sharing equal ones", async () => {
    const before = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    const { session, close } = await bareDatabase();
    try {
      for (const entry of await readdir(MIGRATIONS, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name < TREES_MIGRATION) await cp(path.join(MIGRATIONS, entry.name), path.join(before, entry.name), { recursive: true });
      }
      await applyMigrations(session, before);
      const created = '2026-01-02 03:04:05.678';
      const flat = Array.from({ length: 70 }, (_, i) => `('r2', 'f${String(i).padStart(2, '0')}', NULL, '${String(i).padStart(6, '0')}', 'document', 'Page ${i}', 'page-${i}', 'page-${i}', NULL, false, NULL, '${created}', '${created}')`);
      await session.exec(`
        INSERT INTO "Organization" ("id", "title", "updatedAt") VALUES ('o1', 'Org', now());
        INSERT INTO "Space" ("id", "organizationId", "position", "updatedAt") VALUES ('s1', 'o1', 'a0', now());
        INSERT INTO "Revision" ("id", "spaceId") VALUES ('r1', 's1'), ('r2', 's1'), ('r3', 's1'), ('r4', 's1');
        INSERT INTO "Document" ("hash", "markdown") VALUES ('${contentHash('# P1')}', '# P1');
        INSERT INTO "Page" ("revisionId", "id", "parentId", "position", "type", "title", "slug", "path", "emoji", "hidden", "layout", "createdAt", "updatedAt", "documentHash") VALUES
          ('r1', 'g', NULL, 'a0', 'group', 'Guides', 'guides', 'guides', NULL, false, NULL, '${created}', '${created}', NULL),
          ('r1', 'p1', 'g', 'a1', 'document', 'P1', 'p1', 'guides/p1', '📘', false, '{"cover": false, "width": "wide"}', '${created}', '${created}', '${contentHash('# P1')}'),
          ('r1', 'p2', 'g', 'a0', 'document', 'P2', 'p2', 'guides/p2', NULL, true, NULL, '${created}', '${created}', NULL),
          ('r1', 'q', 'p2', 'a0', 'document', 'Q', 'q', 'guides/p2/q', NULL, false, NULL, '${created}', '${created}', NULL),
          ('r1', 'b', NULL, 'a1', 'document', 'B', 'b', 'b', NULL, false, NULL, '${created}', '${created}', NULL),
          ('r1', 'a', NULL, 'a1', 'document', 'A', 'a', 'a', NULL, false, NULL, '${created}', '${created}', NULL),
          ('r1', 'orphan', 'ghost', '', 'document', 'Orphan', 'orphan', 'ghost/orphan', NULL, false, NULL, '${created}', '${created}', NULL);
        INSERT INTO "Page" ("revisionId", "id", "parentId", "position", "type", "title", "slug", "path", "description", "hidden", "layout", "createdAt", "updatedAt") VALUES
          ${flat.join(',\n          ')};
        INSERT INTO "Page" ("revisionId", "id", "parentId", "position", "type", "title", "slug", "path", "emoji", "hidden", "layout", "createdAt", "updatedAt", "documentHash")
          SELECT 'r4', "id", "parentId", "position", "type", "title", "slug", "path", "emoji", "hidden", "layout", "createdAt", "updatedAt", "documentHash" FROM "Page" WHERE "revisionId" = 'r1';
        INSERT INTO "FileBlob" ("hash", "bytes", "size") VALUES ('${contentHash(new Uint8Array([1]))}', '\\x01', 1);
        INSERT INTO "File" ("revisionId", "id", "name", "contentType", "size", "width", "height", "blobHash", "createdAt") VALUES
          ('r1', 'f1', 'b.png', 'image/png', 1, 2, 3, '${contentHash(new Uint8Array([1]))}', '${created}'),
          ('r1', 'f2', 'a.txt', 'text/plain', 1, NULL, NULL, '${contentHash(new Uint8Array([1]))}', '${created}'),
          ('r1', 'f3', 'B.md', 'text/markdown', 1, NULL, NULL, '${contentHash(new Uint8Array([1]))}', '${created}');
      `);
      await cp(path.join(MIGRATIONS, TREES_MIGRATION), path.join(before, TREES_MIGRATION), { recursive: true });
      expect(await applyMigrations(session, before)).toContain(TREES_MIGRATION);

      const rows = async (sql: string) => (await session.query(sql)).rows;
      const revisions = await rows(`SELECT "id", "pageTree", "fileTree" FROM "Revision" ORDER BY "id"`);
      const nodes = new Map<string, StoredNode>((await rows(`SELECT "hash", "level", "items" FROM "ContentNode"`)).map((n) => [n.hash, n]));
      const tree = (id: string) => revisions.find((r) => r.id === id)!;
      // Equal trees are one tree; a revision without pages or files has none.
      expect(tree('r4').pageTree).toBe(tree('r1').pageTree);
      expect(tree('r3')).toMatchObject({ pageTree: null, fileTree: null });
      expect(tree('r2').fileTree).toBeNull();

      const pages = sequenceFromNodes(tree('r1').pageTree, nodes, pageCodec).entries();
      // Depth first; siblings by order key then ID; the orphan at the top level, where its key puts it.
      expect(pages.map((p) => [p.id, p.parentId, p.prev, p.descendants])).toEqual([
        ['orphan', null, null, 0],
        ['g', null, 'orphan', 3],
        ['p2', 'g', null, 1],
        ['q', 'p2', null, 0],
        ['p1', 'g', 'p2', 0],
        ['a', null, 'g', 0],
        ['b', null, 'a', 0],
      ]);
      const p1 = pages.find((p) => p.id === 'p1')!;
      expect(p1).toMatchObject({ type: 'document', title: 'P1', slug: 'p1', path: 'guides/p1', emoji: '📘', hidden: false, description: null, documentHash: contentHash('# P1') });
      expect(p1.layout).toEqual({ cover: false, width: 'wide' });
      expect(p1.createdAt.toISOString()).toBe('2026-01-02T03:04:05.678Z');
      expect(pages.find((p) => p.id === 'p2')).toMatchObject({ hidden: true, layout: null, emoji: null, documentHash: null });
      expect(pages.find((p) => p.id === 'g')).toMatchObject({ type: 'group' });

      const files = sequenceFromNodes(tree('r1').fileTree, nodes, fileCodec).entries();
      expect(files.map((f) => f.name)).toEqual(['B.md', 'a.txt', 'b.png']);
      expect(files[2]).toMatchObject({ id: 'f1', contentType: 'image/png', size: 1, width: 2, height: 3, blobHash: contentHash(new Uint8Array([1])) });

      // 70 pages: leaves of 32 under one node; the SQL readers find any page without reading the others.
      const flatPages = sequenceFromNodes(tree('r2').pageTree, nodes, pageCodec);
      expect(flatPages.entries().map((p) => p.id)).toEqual(Array.from({ length: 70 }, (_, i) => `f${String(i).padStart(2, '0')}`));
      expect(flatPages.leaves.map((leaf) => leaf.entries.length)).toEqual([32, 32, 6]);
      expect(flatPages.inner.map((level) => level.length)).toEqual([1]);
      expect(await rows(`SELECT "start"::int, "count" FROM content_leaves('${tree('r2').pageTree}') ORDER BY "start"`)).toEqual([
        { start: 0, count: 32 },
        { start: 32, count: 32 },
        { start: 64, count: 6 },
      ]);
      expect(await rows(`SELECT "position"::int, "item" ->> 'title' AS "title" FROM content_find('${tree('r2').pageTree}', ARRAY['f66', 'f03'])  ORDER BY 1`)).toEqual([
        { position: 3, title: 'Page 3' },
        { position: 66, title: 'Page 66' },
      ]);
      expect(await rows(`SELECT count(*)::int AS "n" FROM content_items('${tree('r2').pageTree}')`)).toEqual([{ n: 70 }]);
      // The tables are gone.
      expect(await rows(`SELECT table_name FROM information_schema.tables WHERE table_name IN ('Page', 'File')`)).toEqual([]);
    } finally {
      await close();
      await rm(before, { recursive: true, force: true });
    }
  });
});
