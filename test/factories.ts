/**
 * Factories: the test data of every test file, built the way the application builds it — through the
 * HTTP API (`app.fetch`, no network) as a user would, so that rows come with everything the services
 * give them (a space's first revision and its position among its siblings, a team's memberships, …).
 *
 * Two exceptions, both writing exactly what the application writes:
 * - users are created by the user service (`createUserWithToken`, as `npm run admin -- create-user`
 *   does): over HTTP that is the admin route, whose rate limit (10 per IP per minute) tests would hit;
 * - a membership (`addMember`, `buildMember`) is the one `Member` row joining through an invitation
 *   writes (`joinOrganization`: organization, user, role, joinedAt). Joining through the API costs three
 *   requests per member and leaves invite links behind that invites.test.ts counts.
 */
import type { Db } from '../src/db/client.ts';
import type { Role } from '../src/generated/prisma/client.ts';
import { putDocuments } from '../src/modules/content/store/document-store.ts';
import { databaseFileStore } from '../src/modules/content/store/file-store.ts';
import { createUserWithToken } from '../src/modules/users/user.service.ts';
import { newId } from '../src/lib/ids.ts';
import { expectOk } from './support/assertions.ts';
import { fileRows, pageRow, pageRows, writeFileRows, writePageRows } from './support/content-rows.ts';
import { callerFor, type Caller, type Harness } from './support/harness.ts';

let userCounter = 0;

/** A new user with a personal access token, as a caller. */
export async function buildUser(h: Harness, name?: string): Promise<Caller> {
  userCounter += 1;
  const displayName = name ?? `User ${userCounter}`;
  const email = `${displayName.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${userCounter}.${Date.now()}@example.com`;
  const { user, token } = await createUserWithToken(h.db, { email, displayName }, h.clock.now());
  return callerFor(h, token, user.id, user.email);
}

export interface BuiltOrganization {
  /** The organization's ID (also as `id`). */
  organizationId: string;
  id: string;
  /** The user who created it: its admin. */
  admin: Caller;
}

/** An organization created through the API (`POST /v1/orgs`) by a new user, its admin. */
export async function buildOrganization(h: Harness, title = 'Acme', body: Record<string, unknown> = {}): Promise<BuiltOrganization> {
  const admin = await buildUser(h, `${title} Admin`);
  const created = await admin.rest('POST', '/v1/orgs', { title, ...body });
  if (created.status !== 201) throw new Error(`createOrganization failed: ${created.status} ${created.text}`);
  return { admin, organizationId: created.body.id, id: created.body.id };
}

/**
 * Makes an existing user a member of the organization with `role` (`null`: a guest), one second after
 * the previous event of the test clock (members' `joinedAt` order is the order they were added).
 */
export async function addMember(h: Harness, organizationId: string, caller: Pick<Caller, 'userId'>, role: Role | null = 'read') {
  h.clock.advance(1000);
  await h.db.member.create({ data: { organizationId, userId: caller.userId, role, joinedAt: h.clock.now() } });
}

/** A new user, member of the organization with `role` (`null`: a guest). */
export async function buildMember(h: Harness, organizationId: string, role: Role | null = 'read', name?: string): Promise<Caller> {
  const caller = await buildUser(h, name);
  await addMember(h, organizationId, caller, role);
  return caller;
}

/** A team created by `admin` (`PUT /orgs/{o}/teams`) with these members. */
export async function buildTeam(
  admin: Caller,
  organizationId: string,
  input: { title?: string; members?: string[] } = {},
): Promise<{ id: string; title: string; [key: string]: any }> {
  const res = await admin.rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: input.title ?? 'Team', ...(input.members ? { members: input.members } : {}) });
  return expectOk(res, 201, 'createOrganizationTeam');
}

/** A collection created by `caller` (`POST /orgs/{o}/collections`; `parent`, `title`, … in `body`). */
export async function buildCollection(caller: Caller, organizationId: string, body: Record<string, unknown> = {}) {
  return expectOk(await caller.rest('POST', `/v1/orgs/${organizationId}/collections`, body), 201, 'createCollection');
}

/**
 * A space created by `caller` (`POST /orgs/{o}/spaces`): with its first revision, and at the end of its
 * parent's order (`parent`, `title`, … in `body`).
 */
export async function buildSpace(caller: Caller, organizationId: string, body: Record<string, unknown> = {}) {
  return expectOk(await caller.rest('POST', `/v1/orgs/${organizationId}/spaces`, body), 201, 'createSpace');
}

/** A space with this `defaultLevel` (created, then updated by an admin of the organization). */
export async function buildSpaceWithLevel(admin: Caller, organizationId: string, defaultLevel: Role, body: Record<string, unknown> = {}) {
  const space = await buildSpace(admin, organizationId, body);
  if (defaultLevel === space.defaultLevel) return space;
  return expectOk(await admin.rest('PATCH', `/v1/spaces/${space.id}`, { defaultLevel }), 200, 'updateSpaceById');
}

/** E-mail invitations sent by `admin` (`POST /orgs/{o}/invites`); the answer (`invited`, `failedSSOEmails`). */
export async function buildInvite(admin: Caller, organizationId: string, body: { emails: string[]; role?: Role | null; sso?: boolean }) {
  return expectOk(await admin.rest('POST', `/v1/orgs/${organizationId}/invites`, body), 200, 'inviteUsersToOrganization');
}

/** An invite link created by `admin` (`POST /orgs/{o}/link-invites`). */
export async function buildLinkInvite(admin: Caller, organizationId: string, role: Role = 'read') {
  return expectOk(await admin.rest('POST', `/v1/orgs/${organizationId}/link-invites`, { role }), 201, 'createOrganizationInvite');
}

/** A custom field created by `admin` (`POST /orgs/{o}/custom-fields`). */
export async function buildCustomField(admin: Caller, organizationId: string, body: { name: string; type: string; [key: string]: unknown }) {
  return expectOk(await admin.rest('POST', `/v1/orgs/${organizationId}/custom-fields`, body), 201);
}

export interface PageSeed {
  id: string;
  title: string;
  path: string;
  markdown?: string;
  /** The parent page (default: the top level) and the order key among its siblings (default: ''). */
  parentId?: string;
  position?: string;
  type?: 'document' | 'group' | 'link';
}

/**
 * Pages written straight into a revision (test/support/content-rows.ts): the tree a revision writer
 * writes, bodies through the content-addressed document store. The revision's pages stay.
 */
export async function addPages(db: Db, revisionId: string, pages: PageSeed[]) {
  const hashes = await putDocuments(db, pages.map((p) => p.markdown ?? `# ${p.title}`));
  const rows = await pageRows(db, revisionId);
  await writePageRows(db, revisionId, [
    ...rows,
    ...pages.map((p, i) =>
      pageRow({
        id: p.id,
        title: p.title,
        path: p.path,
        documentHash: hashes[i],
        ...(p.parentId ? { parentId: p.parentId } : {}),
        ...(p.position ? { position: p.position } : {}),
        ...(p.type ? { type: p.type } : {}),
      }),
    ),
  ]);
}

/** A revision's pages with their bodies, by page ID. */
export async function pagesOf(db: Db, revisionId: string) {
  const pages = [...(await pageRows(db, revisionId))].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const documents = await db.document.findMany({ where: { hash: { in: pages.flatMap((p) => (p.documentHash ? [p.documentHash] : [])) } } });
  const markdown = new Map(documents.map((d) => [d.hash, d.markdown]));
  return pages.map((p) => ({ id: p.id, title: p.title, path: p.path, markdown: p.documentHash ? (markdown.get(p.documentHash) ?? null) : null }));
}

/** Files written straight into a revision, until content editing exists: bytes through the file store. */
export async function addFiles(db: Db, revisionId: string, files: { id: string; name: string; contentType: string; bytes: Uint8Array<ArrayBuffer>; width?: number; height?: number }[]) {
  const added = [];
  for (const f of files) {
    const { hash, size } = await databaseFileStore.put(db, f.bytes);
    added.push({ id: f.id, name: f.name, contentType: f.contentType, size, width: f.width ?? null, height: f.height ?? null, blobHash: hash, createdAt: new Date() });
  }
  await writeFileRows(db, revisionId, [...(await fileRows(db, revisionId)), ...added]);
}

/**
 * A later revision of a space, as a revision writer makes it: a new `Revision` row (its parent `from`)
 * holding `from`'s pages and files except those dropped. Pages keep their IDs and share their documents.
 * Neither the space nor any change request is pointed at it: the caller does that.
 */
export async function addRevision(db: Db, spaceId: string, from: string, drop: { pages?: string[]; files?: string[] } = {}) {
  const id = newId();
  const source = await db.revision.findUniqueOrThrow({ where: { id: from } });
  await db.revision.create({ data: { id, spaceId, parents: [from], pageTree: source.pageTree, fileTree: source.fileTree } });
  if (drop.pages?.length) await writePageRows(db, id, (await pageRows(db, from)).filter((p) => !drop.pages!.includes(p.id)));
  if (drop.files?.length) await writeFileRows(db, id, (await fileRows(db, from)).filter((f) => !drop.files!.includes(f.id)));
  return id;
}
