import type { SiteSection, SiteSectionGroup } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { siteFor } from './site-access.ts';
import { findGroup, groupedPosition, localKey, lockSite, readNavigation, siblingSort, type StructurePointer } from './site-navigation.ts';

/** GitBook's SiteStructureItemPointer: what a site's navigation holds. */
export const STRUCTURE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export interface StructureItemPointer {
  type: string;
  id: string;
}
export interface StructureSortInput {
  item: StructureItemPointer;
  position?: { before?: StructureItemPointer | null; after?: StructureItemPointer | null } | null;
}

function checkPointer(pointer: StructureItemPointer, field: string): void {
  if (!(STRUCTURE_ITEM_TYPES as readonly string[]).includes(pointer.type)) throw new BadRequestError(`Invalid "${field}.type": one of ${STRUCTURE_ITEM_TYPES.join(', ')}`);
  checkLength(`${field}.id`, pointer.id, 1, 64);
}

/**
 * `PATCH /orgs/{o}/sites/{s}/structure/sort` (GitBook's sortSiteStructure): puts a section or a section
 * group before or after a sibling, or at the end of its level, without changing its level (site.edit).
 * Sections and groups are what this server orders: a site space keeps its section and its creation
 * order among the section's variants (a 400 says so), and a site has no external links (404). Answers
 * the item moved, as GitBook's SiteStructureItem.
 */
export async function sortSiteStructure(ctx: Context, organizationId: string, siteId: string, input: StructureSortInput): Promise<SiteSection | SiteSectionGroup> {
  const { item, position } = input;
  checkPointer(item, 'item');
  if (position?.before && position?.after) throw new BadRequestError('Invalid "position": give "before" or "after", not both');
  const side = position?.before ? 'before' : position?.after ? 'after' : null;
  const target = side ? position![side]! : null;
  if (target) checkPointer(target, `position.${side}`);
  if (item.type === 'site-space') {
    throw new BadRequestError('Invalid "item.type": site spaces keep their creation order among a section\'s variants here; sort sections and section groups');
  }
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  if (item.type === 'site-external-link') throw new NotFoundError(`External link "${item.id}" not found in this site`);
  if (target && target.type !== 'site-section' && target.type !== 'site-section-group') {
    throw new BadRequestError(`Invalid "position.${side}": no ${target.type} "${target.id}" beside the item (sorting keeps an item at its level)`);
  }
  const moving = item as StructurePointer;
  await ctx.db.$transaction(async (tx) => {
    await lockSite(tx, site.id);
    const nav = await readNavigation(tx, site.id);
    const { groupId, key } = siblingSort(nav, moving, side, target as StructurePointer | null, `position.${side}`);
    if (moving.type === 'site-section') {
      const position = groupId ? groupedPosition(findGroup(nav, groupId).position, key) : key;
      await tx.siteSection.update({ where: { id: moving.id }, data: { position } });
      return;
    }
    await tx.siteSectionGroup.update({ where: { id: moving.id }, data: { position: key } });
    // Its sections follow it: their keys start with the group's.
    for (const section of nav.sections.filter((s) => s.sectionGroupId === moving.id)) {
      await tx.siteSection.update({ where: { id: section.id }, data: { position: groupedPosition(key, localKey(section)) } });
    }
  }, TRANSACTION_OPTIONS);
  return moving.type === 'site-section'
    ? ctx.db.siteSection.findUniqueOrThrow({ where: { id: moving.id } })
    : ctx.db.siteSectionGroup.findUniqueOrThrow({ where: { id: moving.id } });
}
