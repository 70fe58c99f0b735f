// The yardstick of `npm run bench`: GET /v1/orgs/{o}/spaces written by hand on node:http + pg, with the
// same authentication, access rules and JSON (byte for byte, checked by the bench) as the real server,
// in 3 statements: token, access (organization + membership + collection tree), page with grants and
// count (a window count). First pages only (no `page` cursor input): enough for the bench.
// Plain JavaScript so that it runs on bare node. Env: DATABASE_URL, PORT, PUBLIC_URL.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const publicUrl = process.env.PUBLIC_URL;
const apiUrl = `${publicUrl}/v1`;
const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'];
const rank = (r) => (r ? ROLES.indexOf(r) + 1 : 0);
const strongest = (levels) => levels.reduce((best, l) => (rank(l) > rank(best) ? l : best), null);
const visibility = { private: 'private', public: 'public', unlisted: 'unlisted', share_link: 'share-link', visitor_auth: 'visitor-auth', in_collection: 'in-collection' };

function fail(res, code, message) {
  res.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { code, message } }));
}

async function listSpaces(res, token, organizationId, limit) {
  const now = new Date();
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const viewer = (
    await pool.query(
      `WITH "touched" AS (
        UPDATE "AccessToken" SET "lastUsedAt" = $1 WHERE "tokenHash" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= $3) RETURNING "id")
      SELECT t."organizationId" AS "scope", u."id" FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId" WHERE t."tokenHash" = $2`,
      [now, tokenHash, new Date(now.getTime() - 60_000)],
    )
  ).rows[0];
  if (!viewer) return fail(res, 401, 'Unauthorized');
  const access = (
    await pool.query(
      `SELECT o."sso", m."role"::text, m."disabled", m."sso" AS "memberSso",
        (SELECT coalesce(json_agg(json_build_object('id', c."id", 'parentId', c."parentId", 'defaultLevel', c."defaultLevel", 'deleted', c."deletedAt" IS NOT NULL)), '[]')
           FROM "Collection" c WHERE c."organizationId" = o."id") AS "collections"
      FROM "Organization" o LEFT JOIN "Member" m ON m."organizationId" = o."id" AND m."userId" = $2 WHERE o."id" = $1`,
      [organizationId, viewer.id],
    )
  ).rows[0];
  const inScope = viewer.scope === null || viewer.scope === organizationId;
  if (!access || !inScope || access.disabled !== false) return fail(res, 404, `Organization "${organizationId}" not found`);
  if (access.sso && !access.memberSso && access.role !== 'admin') return fail(res, 403, 'This organization requires signing in with SSO');
  const holdsRole = access.role !== null;
  const { rows } = await pool.query(
    `SELECT s."id", s."title", s."emoji", s."visibility"::text, s."createdAt", s."updatedAt", s."editMode"::text, s."collectionId",
        s."revisionId", s."defaultLevel"::text, s."mergeRules", s."openCommentCount", s."changeRequestCount", s."openChangeRequestCount", s."draftChangeRequestCount",
        ARRAY(SELECT g."role"::text FROM "SpaceUserGrant" g WHERE g."spaceId" = s."id" AND g."userId" = $2
              UNION ALL SELECT tg."role"::text FROM "SpaceTeamGrant" tg JOIN "TeamMember" tm ON tm."teamId" = tg."teamId" AND tm."userId" = $2
              WHERE tg."spaceId" = s."id") AS "grants",
        count(*) OVER () AS "total"
      FROM "Space" s
      WHERE s."organizationId" = $1 AND s."deletedAt" IS NULL AND ($3
        OR EXISTS (SELECT 1 FROM "SpaceUserGrant" g WHERE g."spaceId" = s."id" AND g."userId" = $2)
        OR EXISTS (SELECT 1 FROM "SpaceTeamGrant" tg JOIN "TeamMember" tm ON tm."teamId" = tg."teamId" AND tm."userId" = $2 WHERE tg."spaceId" = s."id"))
      ORDER BY s."createdAt", s."id" LIMIT $4`,
    [organizationId, viewer.id, holdsRole, limit + 1],
  );
  const collections = new Map(access.collections.map((c) => [c.id, c]));
  const items = rows.slice(0, limit).map((s) => {
    const inherited = [];
    for (let id = s.collectionId, seen = new Set(); id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
      seen.add(id);
      const c = collections.get(id);
      if (c && !c.deleted) inherited.push(c.defaultLevel);
    }
    const level = holdsRole ? strongest([access.role, s.defaultLevel, ...inherited, ...s.grants]) : strongest(s.grants);
    const at = (r) => rank(level) >= rank(r);
    // Keys in the order SOFA writes them (sorted), absent optional fields omitted, as the REST door does.
    const urls = { app: `${publicUrl}/s/${s.id}/`, location: `${apiUrl}/spaces/${s.id}` };
    if (s.visibility !== 'private') urls.published = `${publicUrl}/s/${s.id}/`;
    if (s.visibility === 'public') urls.public = `${publicUrl}/s/${s.id}/`;
    const space = {
      changeRequests: s.changeRequestCount, changeRequestsDraft: s.draftChangeRequestCount, changeRequestsOpen: s.openChangeRequestCount,
      comments: s.openCommentCount, createdAt: s.createdAt.toISOString(), defaultLevel: s.defaultLevel, editMode: s.editMode, emoji: s.emoji,
      id: s.id, mergeRules: s.mergeRules, object: 'space', organization: organizationId,
    };
    if (s.collectionId !== null) space.parent = s.collectionId;
    space.permissions = { access: at('read'), admin: at('admin'), comment: at('comment'), edit: at('edit'), installIntegration: at('admin'), merge: at('review'), review: at('review'), triggerGitSync: at('review'), view: at('read'), viewInviteLinks: at('admin') };
    space.revision = s.revisionId ?? '';
    space.title = s.title;
    space.updatedAt = s.updatedAt.toISOString();
    space.urls = urls;
    space.visibility = visibility[s.visibility];
    return space;
  });
  const body = { count: rows.length ? Number(rows[0].total) : 0, items };
  if (rows.length > limit) {
    const last = rows[limit - 1];
    body.next = { page: Buffer.from(JSON.stringify([last.createdAt.toISOString(), last.id])).toString('base64url') };
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const route = /^\/v1\/orgs\/([^/]+)\/spaces$/;
createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const match = route.exec(url.pathname);
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (req.method !== 'GET' || !match) return fail(res, 404, 'Not found');
  if (!token) return fail(res, 401, 'Unauthorized');
  listSpaces(res, token, decodeURIComponent(match[1]), Number(url.searchParams.get('limit') ?? 50)).catch((e) => fail(res, 500, String(e)));
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
