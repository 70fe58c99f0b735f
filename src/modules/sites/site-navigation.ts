import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Prisma } from '../../generated/prisma/client.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';

/**
 * A site's navigation: sections and section groups share one order at the top level, and a group holds
 * sections in an order of its own. Every item has a fractional-index key; a section in a group stores
 * its group's key, `/` and its key within the group, so that ordering all sections by `position`
 * (collation "C": `/` sorts before every key character) lists them as the navigation shows them —
 * top-level sections and the sections of each group at the group's place — and one indexed ORDER BY
 * pages through them. Moving a group rewrites its sections' keys (a group holds a handful).
 *
 * Writers lock the site's row first (`lockSite`), so two changes of one site's navigation never compute
 * the same key, also on two instances.
 */
type Tx = Prisma.TransactionClient;

const SEPARATOR = '/';

export interface NavSection {
  id: string;
  sectionGroupId: string | null;
  position: string;
  isDefault: boolean;
}

export interface NavGroup {
  id: string;
  position: string;
}

export interface Navigation {
  sections: NavSection[];
  groups: NavGroup[];
}

/** Serialises changes of a site's navigation and settings; FOR UPDATE, as basenames are unique keys. */
export async function lockSite(tx: Tx, siteId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM "Site" WHERE "id" = ${siteId} FOR UPDATE`;
}

export async function readNavigation(tx: Tx, siteId: string): Promise<Navigation> {
  const [sections, groups] = await Promise.all([
    tx.siteSection.findMany({ where: { siteId }, select: { id: true, sectionGroupId: true, position: true, isDefault: true } }),
    tx.siteSectionGroup.findMany({ where: { siteId }, select: { id: true, position: true } }),
  ]);
  const byKey = <T extends { position: string; id: string }>(a: T, b: T) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1);
  return { sections: sections.sort(byKey), groups: groups.sort(byKey) };
}

/** A section's key among its siblings (within its group, or at the top level). */
export const localKey = (section: Pick<NavSection, 'position' | 'sectionGroupId'>) =>
  section.sectionGroupId ? section.position.slice(section.position.lastIndexOf(SEPARATOR) + 1) : section.position;

export const groupedPosition = (groupKey: string, key: string) => `${groupKey}${SEPARATOR}${key}`;

type TopItem = { kind: 'section' | 'group'; id: string; key: string };

/** The top level: ungrouped sections and groups, in order. */
function topLevel(nav: Navigation): TopItem[] {
  return [
    ...nav.sections.filter((s) => !s.sectionGroupId).map((s) => ({ kind: 'section' as const, id: s.id, key: s.position })),
    ...nav.groups.map((g) => ({ kind: 'group' as const, id: g.id, key: g.position })),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The sections of a group, in order, with their keys in the group. */
function inGroup(nav: Navigation, groupId: string): { id: string; key: string }[] {
  return nav.sections.filter((s) => s.sectionGroupId === groupId).map((s) => ({ id: s.id, key: localKey(s) }));
}

/** A key after every item of `items` (sorted). */
const keyAtEnd = (items: { key: string }[]) => generateKeyBetween(items.at(-1)?.key ?? null, null);

/** A key right before or after the item `id` of `items` (sorted), skipping `moving` itself. */
function keyBeside(items: { id: string; key: string }[], id: string, side: 'before' | 'after', moving: string): string {
  const others = items.filter((item) => item.id !== moving);
  const at = others.findIndex((item) => item.id === id);
  return side === 'before'
    ? generateKeyBetween(others[at - 1]?.key ?? null, others[at].key)
    : generateKeyBetween(others[at].key, others[at + 1]?.key ?? null);
}

/** Where a new, or moved, top-level item goes: the end of the site. */
export const topLevelEnd = (nav: Navigation) => keyAtEnd(topLevel(nav));

/** Where a section added to a group goes: the end of the group. */
export function groupEnd(nav: Navigation, group: NavGroup): string {
  return groupedPosition(group.position, keyAtEnd(inGroup(nav, group.id)));
}

/** Right after the group at the top level: where a section taken out of it goes. */
export function besideGroup(nav: Navigation, group: NavGroup): string {
  return keyBeside(topLevel(nav), group.id, 'after', '');
}

/** Keys for `count` items put where `group` stands, in order (its sections when it is deleted). */
export function keysReplacing(nav: Navigation, group: NavGroup, count: number): string[] {
  const items = topLevel(nav);
  const at = items.findIndex((item) => item.id === group.id);
  return generateNKeysBetween(items[at - 1]?.key ?? null, items[at + 1]?.key ?? null, count);
}

export interface SectionMove {
  sectionGroupId: string | null;
  position: string;
}

/**
 * Where a section goes when placed before or after another section: beside it, in its group (or at the
 * top level); with no position, at the end of the site (out of any group).
 */
export function sectionMove(nav: Navigation, sectionId: string, side: 'before' | 'after' | null, targetId: string | null, field: string): SectionMove {
  if (!side || !targetId) return { sectionGroupId: null, position: topLevelEnd({ ...nav, sections: nav.sections.filter((s) => s.id !== sectionId) }) };
  const target = nav.sections.find((s) => s.id === targetId);
  if (!target) throw new BadRequestError(`Invalid "${field}": no section "${targetId}" in this site`);
  if (target.id === sectionId) throw new BadRequestError(`Invalid "${field}": a section cannot be placed beside itself`);
  if (!target.sectionGroupId) return { sectionGroupId: null, position: keyBeside(topLevel(nav), target.id, side, sectionId) };
  const group = nav.groups.find((g) => g.id === target.sectionGroupId)!;
  return { sectionGroupId: group.id, position: groupedPosition(group.position, keyBeside(inGroup(nav, group.id), target.id, side, sectionId)) };
}

/**
 * Where a group goes when placed before or after a section or another group: beside that top-level
 * item (a section's group, when the section is in one); with no position, at the end of the site.
 */
export function groupMove(nav: Navigation, groupId: string, side: 'before' | 'after' | null, target: { type: string; id: string } | null, field: string): string {
  const items = topLevel(nav);
  if (!side || !target) return keyAtEnd(items.filter((item) => item.id !== groupId));
  let anchor: string;
  if (target.type === 'site-section-group') {
    if (!nav.groups.some((g) => g.id === target.id)) throw new BadRequestError(`Invalid "${field}": no section group "${target.id}" in this site`);
    anchor = target.id;
  } else if (target.type === 'site-section') {
    const section = nav.sections.find((s) => s.id === target.id);
    if (!section) throw new BadRequestError(`Invalid "${field}": no section "${target.id}" in this site`);
    anchor = section.sectionGroupId ?? section.id;
  } else {
    throw new BadRequestError(`Invalid "${field}": expected { type: "site-section" | "site-section-group", id }`);
  }
  if (anchor === groupId) throw new BadRequestError(`Invalid "${field}": a group cannot be placed beside itself or its own sections`);
  return keyBeside(items, anchor, side, groupId);
}

/** The section rows of the site's navigation order, first to last. */
export const inOrder = (nav: Navigation) => [...nav.sections].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));

export function findGroup(nav: Navigation, groupId: string): NavGroup {
  const group = nav.groups.find((g) => g.id === groupId);
  if (!group) throw new NotFoundError(`Section group "${groupId}" not found in this site`);
  return group;
}

export function findSection(nav: Navigation, sectionId: string): NavSection {
  const section = nav.sections.find((s) => s.id === sectionId);
  if (!section) throw new NotFoundError(`Section "${sectionId}" not found in this site`);
  return section;
}

/** Deletes sections of a site (holding its lock), keeping one default while any section is left. */
export async function removeSections(tx: Tx, siteId: string, sectionIds: string[]) {
  const before = inOrder(await readNavigation(tx, siteId));
  const defaultGone = before.some((s) => s.isDefault && sectionIds.includes(s.id));
  await tx.siteSection.deleteMany({ where: { id: { in: sectionIds } } });
  if (!defaultGone) return;
  const at = before.findIndex((s) => s.isDefault);
  const next = [...before.slice(at + 1), ...before.slice(0, at)].find((s) => !sectionIds.includes(s.id));
  if (next) await tx.siteSection.update({ where: { id: next.id }, data: { isDefault: true } });
}

export type StructurePointer = { type: 'site-section' | 'site-section-group'; id: string };

/**
 * GitBook's sortSiteStructure: a new key for `item` before or after `target`, a sibling at the same level
 * — among the top level's sections and groups, or among the sections of the item's group —, or with no
 * target the end of that level. The level never changes (moving between the top level and a group is
 * the section's own operation), so a target elsewhere is a 400. `groupId`: the level (null: the top).
 */
export function siblingSort(
  nav: Navigation,
  item: StructurePointer,
  side: 'before' | 'after' | null,
  target: StructurePointer | null,
  field: string,
): { groupId: string | null; key: string } {
  const groupId = item.type === 'site-section' ? findSection(nav, item.id).sectionGroupId : (findGroup(nav, item.id), null);
  const siblings = groupId
    ? inGroup(nav, groupId).map((s) => ({ ...s, type: 'site-section' }))
    : topLevel(nav).map((s) => ({ id: s.id, key: s.key, type: s.kind === 'section' ? 'site-section' : 'site-section-group' }));
  if (!side || !target) return { groupId, key: keyAtEnd(siblings.filter((s) => s.id !== item.id)) };
  if (target.id === item.id) throw new BadRequestError(`Invalid "${field}": an item cannot be placed beside itself`);
  if (!siblings.some((s) => s.id === target.id && s.type === target.type)) {
    throw new BadRequestError(`Invalid "${field}": no ${target.type} "${target.id}" beside the item (sorting keeps an item at its level)`);
  }
  return { groupId, key: keyBeside(siblings, target.id, side, item.id) };
}
