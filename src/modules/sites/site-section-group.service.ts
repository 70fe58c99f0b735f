import type { Prisma, SiteSectionGroup } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize } from '../../core/validate.ts';
import { siteFor } from './site-access.ts';
import { checkDistinct, checkGroupTitle, checkIcon } from './site-inputs.ts';
import {
  besideGroup,
  findGroup,
  findSection,
  groupedPosition,
  groupEnd,
  groupMove,
  keysReplacing,
  localKey,
  lockSite,
  readNavigation,
  topLevelEnd,
  type Navigation,
} from './site-navigation.ts';

/**
 * Section groups: headings of the site's navigation that hold sections. A group sits among the
 * top-level sections (one order), a section belongs to at most one group (adding it to another moves
 * it), and a group's sections keep an order of their own (site-navigation.ts).
 */
export const GROUP_ORDER: SortKey[] = [
  { field: 'position', direction: 'asc' },
  { field: 'id', direction: 'asc' },
];

export const MAX_GROUP_SECTIONS = 100;

export async function listSectionGroups(ctx: Context, organizationId: string, siteId: string, args: ListArgs, query?: ItemQuery) {
  const { site } = await siteFor(ctx, organizationId, siteId, 'read');
  return paginate({ args, keys: GROUP_ORDER, where: { siteId: site.id }, model: ctx.db.siteSectionGroup, query });
}

const getGroup = (ctx: Context, siteId: string, groupId: string, query?: ItemQuery): Promise<SiteSectionGroup> =>
  ctx.db.siteSectionGroup.findFirstOrThrow({ relationLoadStrategy: 'join', where: { id: groupId, siteId }, ...(query as object) });

/** Moves sections into a group, after its own, in the order given (inside the caller's transaction). */
async function putInGroup(tx: Prisma.TransactionClient, nav: Navigation, group: { id: string; position: string }, sectionIds: string[]) {
  for (const sectionId of sectionIds) {
    const section = findSection(nav, sectionId);
    const position = groupEnd(nav, group);
    await tx.siteSection.update({ where: { id: sectionId }, data: { sectionGroupId: group.id, position } });
    Object.assign(section, { sectionGroupId: group.id, position });
  }
}

/** `POST …/section-groups`: at the end of the site, holding `sections` (moved from wherever they were). */
export async function createSectionGroup(ctx: Context, organizationId: string, siteId: string, input: { title: string; icon?: string | null; sections?: string[] | null }, query?: ItemQuery) {
  checkGroupTitle(input.title);
  checkIcon(input.icon);
  const sections = input.sections ?? [];
  checkArraySize('sections', sections, 0, MAX_GROUP_SECTIONS);
  checkDistinct('sections', sections);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const id = newId();
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    for (const sectionId of sections) {
      if (!nav.sections.some((s) => s.id === sectionId)) throw new BadRequestError(`Invalid "sections": no section "${sectionId}" in this site`);
    }
    const group = { id, position: topLevelEnd(nav) };
    await tx.siteSectionGroup.create({ data: { ...group, siteId: site.id, title: input.title, icon: input.icon ?? null, createdAt: ctx.clock.now() } });
    nav.groups.push(group);
    await putInGroup(tx, nav, group, sections);
  }, TRANSACTION_OPTIONS);
  return getGroup(ctx, site.id, id, query);
}

export async function updateSectionGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, input: { title?: string | null; icon?: string | null }, query?: ItemQuery) {
  if (input.title !== undefined) checkGroupTitle(input.title);
  checkIcon(input.icon);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    findGroup(await readNavigation(tx, site.id), groupId);
    await tx.siteSectionGroup.update({ where: { id: groupId }, data: { title: input.title ?? undefined, icon: input.icon } });
  }, TRANSACTION_OPTIONS);
  return getGroup(ctx, site.id, groupId, query);
}

/** `DELETE …/section-groups/{id}`: its sections stay, at the group's place in the navigation. */
export async function deleteSectionGroup(ctx: Context, organizationId: string, siteId: string, groupId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    const group = findGroup(nav, groupId);
    const members = nav.sections.filter((s) => s.sectionGroupId === groupId);
    const keys = keysReplacing(nav, group, members.length);
    for (const [i, section] of members.entries()) await tx.siteSection.update({ where: { id: section.id }, data: { sectionGroupId: null, position: keys[i] } });
    await tx.siteSectionGroup.delete({ where: { id: groupId } });
  }, TRANSACTION_OPTIONS);
  return true;
}

/** `POST …/section-groups/{id}/sections`: the section joins the group, at its end (leaving any other group). */
export async function addSectionToGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string, query?: ItemQuery) {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    const group = findGroup(nav, groupId);
    if (!nav.sections.some((s) => s.id === sectionId)) throw new BadRequestError(`Invalid "sectionId": no section "${sectionId}" in this site`);
    if (findSection(nav, sectionId).sectionGroupId === groupId) return;
    await putInGroup(tx, nav, group, [sectionId]);
  }, TRANSACTION_OPTIONS);
  return getGroup(ctx, site.id, groupId, query);
}

/** `DELETE …/section-groups/{id}/sections/{sectionId}`: the section leaves the group, right after it. */
export async function removeSectionFromGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<boolean> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    const group = findGroup(nav, groupId);
    const section = findSection(nav, sectionId);
    if (section.sectionGroupId !== groupId) throw new BadRequestError(`Invalid "siteSectionId": section "${sectionId}" is not in this group`);
    await tx.siteSection.update({ where: { id: sectionId }, data: { sectionGroupId: null, position: besideGroup(nav, group) } });
  }, TRANSACTION_OPTIONS);
  return true;
}

export interface GroupPosition {
  before?: { type: string; id: string } | null;
  after?: { type: string; id: string } | null;
}

/** `POST …/section-groups/{id}/move`: beside a top-level section or group (a grouped section: its group); default the end. */
export async function moveSectionGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, position: GroupPosition | null | undefined, query?: ItemQuery) {
  if (position?.before && position?.after) throw new BadRequestError('Invalid "position": give "before" or "after", not both');
  const side = position?.before ? 'before' : position?.after ? 'after' : null;
  const target = side ? position![side]! : null;
  if (target && (!target.id || typeof target.type !== 'string')) throw new BadRequestError(`Invalid "position.${side}": expected { type: "site-section" | "site-section-group", id }`);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    findGroup(nav, groupId);
    const key = groupMove(nav, groupId, side, target, `position.${side}`);
    await tx.siteSectionGroup.update({ where: { id: groupId }, data: { position: key } });
    // Its sections follow it: their keys start with the group's.
    for (const section of nav.sections.filter((s) => s.sectionGroupId === groupId)) {
      await tx.siteSection.update({ where: { id: section.id }, data: { position: groupedPosition(key, localKey(section)) } });
    }
  }, TRANSACTION_OPTIONS);
  return getGroup(ctx, site.id, groupId, query);
}
