// The second yardstick of `npm run bench` (versus-raw.ts): GET /v1/orgs/{o}/spaces written by hand the way a
// typical Express + Prisma service would write it — Prisma's query API (findUnique, findMany with
// relation filters and includes, count), no raw SQL — with the same authentication, access rules and
// JSON (byte for byte, checked by the bench) as the real server. First pages only (no `page` cursor).
// Run with tsx (it imports the generated Prisma client). Env: DATABASE_URL, PORT, PUBLIC_URL.
import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import express, { type Response } from 'express';
import pg from 'pg';
import { PrismaClient } from '../../src/generated/prisma/client.ts';

const prisma = new PrismaClient({ adapter: new PrismaPg(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })) });
const publicUrl = process.env.PUBLIC_URL!;
const apiUrl = `${publicUrl}/v1`;
const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'];
const rank = (r: string | null | undefined) => (r ? ROLES.indexOf(r) + 1 : 0);
const strongest = (levels: (string | null)[]) => levels.reduce<string | null>((best, l) => (rank(l) > rank(best) ? l : best), null);
const visibility: Record<string, string> = { private: 'private', public: 'public', unlisted: 'unlisted', share_link: 'share-link', visitor_auth: 'visitor-auth', in_collection: 'in-collection' };

const fail = (res: Response, code: number, message: string) => res.status(code).type('application/json; charset=utf-8').send(JSON.stringify({ error: { code, message } }));

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/v1/orgs/:organizationId/spaces', async (req, res) => {
  try {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return fail(res, 401, 'Unauthorized');
    const organizationId = req.params.organizationId;
    const limit = Number(req.query.limit ?? 50);
    const now = new Date();
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const accessToken = await prisma.accessToken.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!accessToken) return fail(res, 401, 'Unauthorized');
    if (!accessToken.lastUsedAt || accessToken.lastUsedAt.getTime() <= now.getTime() - 60_000) {
      await prisma.accessToken.update({ where: { id: accessToken.id }, data: { lastUsedAt: now } });
    }
    const userId = accessToken.user.id;
    const organization = await prisma.organization.findUnique({
      where: { id: organizationId },
      include: { members: { where: { userId } }, collections: { select: { id: true, parentId: true, defaultLevel: true, deletedAt: true } } },
    });
    const member = organization?.members[0];
    const inScope = accessToken.organizationId === null || accessToken.organizationId === organizationId;
    if (!organization || !inScope || !member || member.disabled) return fail(res, 404, `Organization "${organizationId}" not found`);
    if (organization.sso && !member.sso && member.role !== 'admin') return fail(res, 403, 'This organization requires signing in with SSO');
    const holdsRole = member.role !== null;
    const granted = { OR: [{ userGrants: { some: { userId } } }, { teamGrants: { some: { team: { members: { some: { userId } } } } } }] };
    const where = { organizationId, deletedAt: null, ...(holdsRole ? {} : granted) };
    const [rows, total] = await Promise.all([
      prisma.space.findMany({
        where,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: limit + 1,
        include: { userGrants: { where: { userId } }, teamGrants: { where: { team: { members: { some: { userId } } } } } },
      }),
      prisma.space.count({ where }),
    ]);
    const collections = new Map(organization.collections.map((c) => [c.id, c]));
    const items = rows.slice(0, limit).map((s) => {
      const inherited: string[] = [];
      for (let id = s.collectionId, seen = new Set<string>(); id && !seen.has(id); id = collections.get(id)?.parentId ?? null) {
        seen.add(id);
        const c = collections.get(id);
        if (c && !c.deletedAt) inherited.push(c.defaultLevel);
      }
      const grants = [...s.userGrants.map((g) => g.role), ...s.teamGrants.map((g) => g.role)];
      const level = holdsRole ? strongest([member.role, s.defaultLevel, ...inherited, ...grants]) : strongest(grants);
      const at = (r: string) => rank(level) >= rank(r);
      // Keys in the order the REST door writes them (sorted), absent optional fields omitted.
      const urls: Record<string, string> = { app: `${publicUrl}/s/${s.id}/`, location: `${apiUrl}/spaces/${s.id}` };
      if (s.visibility !== 'private') urls.published = `${publicUrl}/s/${s.id}/`;
      if (s.visibility === 'public') urls.public = `${publicUrl}/s/${s.id}/`;
      const space: Record<string, unknown> = {
        changeRequests: s.changeRequestCount,
        changeRequestsDraft: s.draftChangeRequestCount,
        changeRequestsOpen: s.openChangeRequestCount,
        comments: s.openCommentCount,
        createdAt: s.createdAt.toISOString(),
        defaultLevel: s.defaultLevel,
        editMode: s.editMode,
        emoji: s.emoji,
        id: s.id,
        mergeRules: s.mergeRules,
        object: 'space',
        organization: organizationId,
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
    const body: Record<string, unknown> = { count: total, items };
    if (rows.length > limit) {
      const last = rows[limit - 1];
      body.next = { page: Buffer.from(JSON.stringify([last.createdAt.toISOString(), last.id])).toString('base64url') };
    }
    res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(body));
  } catch (error) {
    fail(res, 500, String(error));
  }
});
app.use((_req, res) => fail(res, 404, 'Not found'));
app.listen(Number(process.env.PORT), '127.0.0.1');
