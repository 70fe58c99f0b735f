import type { Prisma, SiteSpace, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, rejectNull } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { slugify } from '../../lib/slugify.ts';
import { newId } from '../../lib/ids.ts';
import { spaceFor } from '../content-access/index.ts';
import { parseCondition } from './adaptive-content.ts';
import { siteFor } from './site-access.ts';
import { checkSiteSpacePath } from './site-inputs.ts';
import { findSection, lockSite, readNavigation, removeSections } from './site-navigation.ts';
import { addSections } from './site-section.service.ts';
import { siteSpaceTimes } from './site-spaces.ts';
import { visitorSite } from './site-visitors.ts';

/**
 * Site spaces: the variants of a section (a language, a version), GitBook's `…/site-spaces`. A section
 * has one default variant, at the section's own address; the others are at the section's address and
 * their `path` (unique among the section's variants; the URL lookup resolves them so). Every write locks
 * the site's row first, as every writer of its navigation does, so the "one default per section" index
 * and the unique paths hold when two requests race. Reads are the sections' (site-visitors.ts); writes
 * need `edit` on the site.
 */

type Tx = Prisma.TransactionClient;

/** Oldest first: a section's variants in the order they were added (the order the lookup and the structure use). */
export const SITE_SPACE_ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

const MAX_ID = 64;

const siteSpaceNotFound = (siteSpaceId: string) => new NotFoundError(`Site space "${siteSpaceId}" not found in this site`);

export interface SiteSpaceFilters {
  shareKey?: string | null;
  /** GitBook's filter: true only the default variants, false only the others. */
  default?: boolean | null;
  sectionId?: string | null;
  spaceId?: string | null;
}

/** `GET …/site-spaces`: who reads the site's sections reads them (members; visitors once it is published for them). */
export async function listSiteSpaces(ctx: Context, organizationId: string, siteId: string, args: ListArgs & SiteSpaceFilters, query?: ItemQuery) {
  checkLength('sectionId', args.sectionId, 1, MAX_ID);
  checkLength('spaceId', args.spaceId, 1, MAX_ID);
  const site = await visitorSite(ctx, organizationId, siteId, args.shareKey);
  const where: Prisma.SiteSpaceWhereInput = {
    siteId: site.id,
    ...(typeof args.default === 'boolean' ? { isDefault: args.default } : {}),
    ...(args.sectionId ? { sectionId: args.sectionId } : {}),
    ...(args.spaceId ? { spaceId: args.spaceId } : {}),
  };
  return paginate({ args, keys: SITE_SPACE_ORDER, where, model: ctx.db.siteSpace, query });
}

const getSiteSpace = (ctx: Context, siteId: string, siteSpaceId: string, query?: ItemQuery): Promise<SiteSpace> =>
  ctx.db.siteSpace.findFirstOrThrow({ relationLoadStrategy: 'join', where: { id: siteSpaceId, siteId }, ...(query as object) });

/**
 * The space `spaceId` names: a live space of the site's organization the caller can read, else a 404
 * naming `spaceId` (a space the caller cannot see is as unknown as one that does not exist).
 */
async function readableSpace(ctx: Context, organizationId: string, spaceId: string): Promise<Space> {
  const space = await spaceFor(ctx, spaceId, 'read').then(
    (access) => access.space,
    (error) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    },
  );
  if (!space || space.organizationId !== organizationId) throw new NotFoundError(`Invalid "spaceId": no space "${spaceId}" in this organization`);
  return space;
}

/** `base`, else `base-2`, `base-3` …: the first path none of `taken` has. */
function freePath(taken: ReadonlySet<string>, base: string): string {
  let path = base;
  for (let n = 2; taken.has(path); n++) path = `${base.slice(0, 95)}-${n}`;
  return path;
}

/** What GitBook's bodies carry that this server does not do: refused, never silently dropped (`false`/`null` are what it does). */
function refuseUnsupported(input: { draft?: boolean | null; hidden?: boolean | null; pageId?: string | null }) {
  if (input.draft === true) throw new BadRequestError('Invalid "draft": draft site spaces are not supported (every site space is live)');
  if (input.hidden === true) throw new BadRequestError('Invalid "hidden": hidden site spaces are not supported');
  if (input.pageId !== undefined && input.pageId !== null) throw new BadRequestError('Invalid "pageId": a custom home page is not supported (the space\'s first page is its home)');
}

export interface AddSiteSpaceInput {
  spaceId?: string | null;
  sectionId?: string | null;
  title?: string | null;
  template?: unknown;
  draft?: boolean | null;
  pageId?: string | null;
}

/**
 * `POST …/site-spaces` (GitBook's addSpaceToSite): an existing space of the organization as a new
 * variant of `sectionId`, else of the default section; in a site without sections, as a new section
 * (the first, default) — every site space here belongs to a section, as `createSite` makes them. Its
 * path is made from its title, unique among the section's variants. `spaceId: null` (a new space, maybe
 * from a template) is not supported: 400.
 */
export async function addSiteSpace(ctx: Context, organizationId: string, siteId: string, input: AddSiteSpaceInput, query?: ItemQuery) {
  if (input.spaceId === undefined || input.spaceId === null) {
    throw new BadRequestError('Invalid "spaceId": pass the ID of an existing space (creating a new space, from a template or blank, is not supported)');
  }
  checkLength('spaceId', input.spaceId, 1, MAX_ID);
  checkLength('sectionId', input.sectionId, 1, MAX_ID);
  checkLength('title', input.title, 2, 128);
  if (input.template !== undefined && input.template !== null) throw new BadRequestError('Invalid "template": templates apply to new spaces only (`spaceId: null`), which is not supported');
  refuseUnsupported(input);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const space = await readableSpace(ctx, organizationId, input.spaceId);
  const title = input.title ?? null;
  const id = await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    let sectionId: string;
    if (input.sectionId) {
      if (!nav.sections.some((s) => s.id === input.sectionId)) throw new NotFoundError(`Invalid "sectionId": no section "${input.sectionId}" in this site`);
      sectionId = input.sectionId;
    } else if (nav.sections.length > 0) {
      sectionId = (nav.sections.find((s) => s.isDefault) ?? nav.sections[0]).id;
    } else {
      // No section yet: the space becomes the site's first section, and its one (default) variant.
      const [created] = await addSections(tx, site, nav, [space], ctx.clock.now());
      const row = await tx.siteSpace.findFirstOrThrow({ where: { sectionId: created }, select: { id: true } });
      if (title) await tx.siteSpace.update({ where: { id: row.id }, data: { title } });
      return row.id;
    }
    return addVariant(tx, site.id, sectionId, space, title, ctx.clock.now());
  }, TRANSACTION_OPTIONS);
  return getSiteSpace(ctx, site.id, id, query);
}

/** A new variant of a section (holding the site's lock): the default when the section has none. */
async function addVariant(tx: Tx, siteId: string, sectionId: string, space: Space, title: string | null, now: Date): Promise<string> {
  const variants = await tx.siteSpace.findMany({ where: { sectionId }, select: { spaceId: true, path: true, isDefault: true } });
  if (variants.some((v) => v.spaceId === space.id)) throw new ConflictError(`Invalid "spaceId": space "${space.id}" is already a variant of this section`);
  const path = freePath(new Set(variants.map((v) => v.path)), slugify(title ?? space.title));
  const id = newId();
  const createdAt = (await siteSpaceTimes(tx, siteId, now))();
  await tx.siteSpace.create({ data: { id, siteId, sectionId, spaceId: space.id, path, title, isDefault: !variants.some((v) => v.isDefault), createdAt } });
  return id;
}

export interface UpdateSiteSpaceInput {
  path?: string | null;
  condition?: string | null;
  spaceId?: string | null;
  pageId?: string | null;
  hidden?: boolean | null;
  draft?: boolean | null;
}

/**
 * `PATCH …/site-spaces/{id}` (GitBook's updateSiteSpaceById): `path` (unique among the section's
 * variants: 409), `condition` (a string sets it, null removes it, absent keeps it; checked as sections'
 * are), `spaceId` (another space of the organization the caller reads: the variant now publishes it).
 */
export async function updateSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, input: UpdateSiteSpaceInput, query?: ItemQuery) {
  checkLength('siteSpaceId', siteSpaceId, 1, MAX_ID);
  checkSiteSpacePath(input.path);
  if (typeof input.condition === 'string') parseCondition('condition', input.condition);
  rejectNull('spaceId', input.spaceId);
  checkLength('spaceId', input.spaceId, 1, MAX_ID);
  refuseUnsupported(input);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const space = input.spaceId ? await readableSpace(ctx, organizationId, input.spaceId) : null;
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const siteSpace = await tx.siteSpace.findFirst({ where: { id: siteSpaceId, siteId: site.id }, select: { id: true, sectionId: true } });
    if (!siteSpace) throw siteSpaceNotFound(siteSpaceId);
    const others = await tx.siteSpace.findMany({ where: { siteId: site.id, sectionId: siteSpace.sectionId, id: { not: siteSpace.id } }, select: { path: true, spaceId: true } });
    if (input.path && others.some((o) => o.path === input.path)) throw new ConflictError(`Invalid "path": another variant of this section has the path "${input.path}"`);
    if (space && others.some((o) => o.spaceId === space.id)) throw new ConflictError(`Invalid "spaceId": space "${space.id}" is already a variant of this section`);
    await tx.siteSpace.update({ where: { id: siteSpace.id }, data: { path: input.path ?? undefined, condition: input.condition, spaceId: space?.id } });
  }, TRANSACTION_OPTIONS);
  return getSiteSpace(ctx, site.id, siteSpaceId, query);
}

/**
 * `DELETE …/site-spaces/{id}` (GitBook's deleteSiteSpaceById): true when it was deleted (REST 205),
 * false when there was no such site space in the site (204). When it was its section's default, the
 * next variant (in the order they were added, else the first) becomes the default; when it was its
 * section's last, the section goes too (and the next section becomes the site's default when it was
 * the default) — what deleting a space does to the sites publishing it (site-spaces.ts).
 */
export async function deleteSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
  checkLength('siteSpaceId', siteSpaceId, 1, MAX_ID);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  return ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const siteSpace = await tx.siteSpace.findFirst({ where: { id: siteSpaceId, siteId: site.id }, select: { id: true, sectionId: true, isDefault: true } });
    if (!siteSpace) return false;
    const variants = await tx.siteSpace.findMany({
      where: { siteId: site.id, sectionId: siteSpace.sectionId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    if (variants.length === 1 && siteSpace.sectionId) {
      // Its section's last variant: the section goes with it (its site spaces cascade).
      findSection(await readNavigation(tx, site.id), siteSpace.sectionId);
      await removeSections(tx, site.id, [siteSpace.sectionId]);
      return true;
    }
    await tx.siteSpace.delete({ where: { id: siteSpace.id } });
    if (siteSpace.isDefault) {
      const at = variants.findIndex((v) => v.id === siteSpace.id);
      const next = [...variants.slice(at + 1), ...variants.slice(0, at)][0];
      if (next) await tx.siteSpace.update({ where: { id: next.id }, data: { isDefault: true } });
    }
    return true;
  }, TRANSACTION_OPTIONS);
}
