import type { Prisma, SiteSection, Space } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { slugify } from '../../lib/slugify.ts';
import { spaceFor } from '../content-access/index.ts';
import { parseCondition } from './adaptive-content.ts';
import { siteFor } from './site-access.ts';
import { siteSpaceTimes } from './site-spaces.ts';
import { checkIcon, checkSectionPath, checkSectionTitle } from './site-inputs.ts';
import { findSection, lockSite, readNavigation, removeSections, sectionMove, topLevelEnd, type Navigation } from './site-navigation.ts';
import { visitorSite } from './site-visitors.ts';

type Tx = Prisma.TransactionClient;

/** Navigation order (see site-navigation.ts); the ID breaks ties. */
export const SECTION_ORDER: SortKey[] = [
  { field: 'position', direction: 'asc' },
  { field: 'id', direction: 'asc' },
];

/**
 * The spaces `ids` names, in order: each a live space of the organization the caller can read, else a
 * 400 naming `field` (a space the caller cannot see is as unknown as one that does not exist).
 */
export async function readableSpaces(ctx: Context, organizationId: string, ids: readonly string[], field: string): Promise<Space[]> {
  const spaces: Space[] = [];
  for (const id of ids) {
    const space = await spaceFor(ctx, id, 'read').then(
      (access) => access.space,
      (error) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      },
    );
    if (!space || space.organizationId !== organizationId) throw new BadRequestError(`Invalid "${field}": no space "${id}" in this organization`);
    spaces.push(space);
  }
  return spaces;
}

/** A section title from a space's: GitBook's sections have 2..128 characters. */
const titleOf = (space: Space) => (space.title.length >= 2 ? space.title : `Section ${space.title}`.trim()).slice(0, 128);

/** `base`, or `base-2`, `base-3` …: the first path no section of the navigation has. */
function freePath(taken: Set<string>, base: string): string {
  let path = base;
  for (let n = 2; taken.has(path); n++) path = `${base.slice(0, 95)}-${n}`;
  taken.add(path);
  return path;
}

/**
 * Adds a section per space (in order, at the end of the site), each publishing its space as its one,
 * default, site space; the first section of a site becomes its default. Inside the caller's
 * transaction, which holds the site's row (or created it).
 */
export async function addSections(tx: Tx, site: { id: string; organizationId: string }, nav: Navigation, spaces: readonly Space[], now: Date, title?: string | null) {
  const taken = new Set((await tx.siteSection.findMany({ where: { siteId: site.id }, select: { path: true } })).map((s) => s.path));
  let hasDefault = nav.sections.some((s) => s.isDefault);
  const created: string[] = [];
  const nextTime = await siteSpaceTimes(tx, site.id, now);
  for (const space of spaces) {
    const sectionTitle = title || titleOf(space);
    const id = newId();
    const position = topLevelEnd(nav);
    const path = freePath(taken, slugify(sectionTitle));
    await tx.siteSection.create({ data: { id, siteId: site.id, title: sectionTitle, path, position, isDefault: !hasDefault, createdAt: now } });
    await tx.siteSpace.create({ data: { id: newId(), siteId: site.id, sectionId: id, spaceId: space.id, path, isDefault: true, createdAt: nextTime() } });
    nav.sections.push({ id, sectionGroupId: null, position, isDefault: !hasDefault });
    hasDefault = true;
    created.push(id);
  }
  return created;
}

/**
 * Who reads a site's sections: its organization's members with a role (guests 403); visitors (any caller with a token) when the
 * site is published for them — public or unlisted, or a share-link site with an active link's key.
 */
export async function listSections(ctx: Context, organizationId: string, siteId: string, args: ListArgs & { shareKey?: string | null }, query?: ItemQuery) {
  const site = await visitorSite(ctx, organizationId, siteId, args.shareKey);
  return paginate({ args, keys: SECTION_ORDER, where: { siteId: site.id }, model: ctx.db.siteSection, query });
}

const getSection = (ctx: Context, siteId: string, sectionId: string, query?: ItemQuery): Promise<SiteSection> =>
  ctx.db.siteSection.findFirstOrThrow({ relationLoadStrategy: 'join', where: { id: sectionId, siteId }, ...(query as object) });

/** `POST …/sections`: a section publishing `spaceId` (of the organization, readable by the caller), at the end. */
export async function addSection(ctx: Context, organizationId: string, siteId: string, input: { spaceId: string; title?: string | null }, query?: ItemQuery) {
  checkSectionTitle(input.title, true);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const [space] = await readableSpaces(ctx, organizationId, [input.spaceId], 'spaceId');
  const [id] = await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    return addSections(tx, site, await readNavigation(tx, site.id), [space], ctx.clock.now(), input.title);
  }, TRANSACTION_OPTIONS);
  return getSection(ctx, site.id, id, query);
}

export interface UpdateSectionInput {
  title?: string | null;
  path?: string | null;
  description?: string | null;
  icon?: string | null;
  defaultSiteSpace?: string | null;
  condition?: string | null;
}

/** `PATCH …/sections/{id}`: `condition`, `description` and `icon` are removed by null; a path is unique in the site. */
export async function updateSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, input: UpdateSectionInput, query?: ItemQuery) {
  checkSectionTitle(input.title);
  checkSectionPath(input.path);
  checkLength('description', input.description, 0, 256);
  checkIcon(input.icon);
  if (input.defaultSiteSpace === null) throw new BadRequestError('Invalid "defaultSiteSpace": must not be null');
  if (typeof input.condition === 'string') parseCondition('condition', input.condition);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  try {
    await ctx.db.$transaction(async (tx) => {
      await lockSite(tx, site.id);
      findSection(await readNavigation(tx, site.id), sectionId);
      if (input.defaultSiteSpace) {
        const siteSpace = await tx.siteSpace.findFirst({ where: { id: input.defaultSiteSpace, sectionId }, select: { id: true } });
        if (!siteSpace) throw new BadRequestError(`Invalid "defaultSiteSpace": no site space "${input.defaultSiteSpace}" in this section`);
        await tx.siteSpace.updateMany({ where: { sectionId, isDefault: true }, data: { isDefault: false } });
        await tx.siteSpace.update({ where: { id: siteSpace.id }, data: { isDefault: true } });
      }
      await tx.siteSection.update({
        where: { id: sectionId },
        data: { title: input.title ?? undefined, path: input.path ?? undefined, description: input.description, icon: input.icon, condition: input.condition },
      });
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`Invalid "path": another section of this site has the path "${input.path}"`);
    throw error;
  }
  return getSection(ctx, site.id, sectionId, query);
}

/**
 * `DELETE …/sections/{id}`: the section and its site spaces. When it was the default, the next section
 * in the navigation (else the first) becomes the default: a site with sections always has one.
 */
export async function deleteSection(ctx: Context, organizationId: string, siteId: string, sectionId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    findSection(await readNavigation(tx, site.id), sectionId);
    await removeSections(tx, site.id, [sectionId]);
  }, TRANSACTION_OPTIONS);
  return true;
}

export interface SectionPosition {
  before?: { type: string; siteSection: string } | null;
  after?: { type: string; siteSection: string } | null;
}

/** `POST …/sections/{id}/move`: beside another section (joining its group, or the top level); default the end of the site. */
export async function moveSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, position: SectionPosition | null | undefined, query?: ItemQuery) {
  const { side, target } = pointer(position);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    findSection(nav, sectionId);
    const move = sectionMove(nav, sectionId, side, target, `position.${side}`);
    await tx.siteSection.update({ where: { id: sectionId }, data: move });
  }, TRANSACTION_OPTIONS);
  return getSection(ctx, site.id, sectionId, query);
}

function pointer(position: SectionPosition | null | undefined): { side: 'before' | 'after' | null; target: string | null } {
  if (position?.before && position?.after) throw new BadRequestError('Invalid "position": give "before" or "after", not both');
  const side = position?.before ? 'before' : position?.after ? 'after' : null;
  if (!side) return { side: null, target: null };
  const given = position![side]!;
  if (given.type !== 'site-section' || !given.siteSection) {
    throw new BadRequestError(`Invalid "position.${side}": expected { type: "site-section", siteSection }`);
  }
  return { side, target: given.siteSection };
}
