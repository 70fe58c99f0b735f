import type { Prisma } from '../../generated/prisma/client.ts';
import { lockSite, removeSections } from './site-navigation.ts';

/**
 * What deleting a space (or the collection holding it) and moving it to another organization do to
 * sites: its site spaces go, and a section left with none goes too (another becomes the default when it
 * was the default; a section that kept site spaces gets a default one again). Inside the caller's
 * transaction; the sites are locked in ID order, as every writer of a site's navigation locks it first.
 */
export async function removeSpacesFromSites(tx: Prisma.TransactionClient, spaceIds: readonly string[]): Promise<void> {
  if (!spaceIds.length) return;
  const siteSpaces = await tx.siteSpace.findMany({ where: { spaceId: { in: [...spaceIds] } }, select: { id: true, siteId: true, sectionId: true } });
  if (!siteSpaces.length) return;
  const siteIds = [...new Set(siteSpaces.map((s) => s.siteId))].sort();
  for (const siteId of siteIds) await lockSite(tx, siteId);
  await tx.siteSpace.deleteMany({ where: { id: { in: siteSpaces.map((s) => s.id) } } });
  const sectionIds = [...new Set(siteSpaces.flatMap((s) => (s.sectionId ? [s.sectionId] : [])))];
  const sections = await tx.siteSection.findMany({
    where: { id: { in: sectionIds } },
    select: { id: true, siteId: true, siteSpaces: { select: { id: true, isDefault: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
  for (const siteId of siteIds) {
    const emptied = sections.filter((s) => s.siteId === siteId && s.siteSpaces.length === 0).map((s) => s.id);
    if (emptied.length) await removeSections(tx, siteId, emptied);
  }
  for (const section of sections) {
    if (section.siteSpaces.length && !section.siteSpaces.some((s) => s.isDefault)) {
      await tx.siteSpace.update({ where: { id: section.siteSpaces[0].id }, data: { isDefault: true } });
    }
  }
}

/**
 * Creation times for a site's new site spaces, in the order they are made: from `now`, but always after
 * the site's latest, so that ordering by (createdAt, id) — a section's variants, the site's list, the
 * default picked when one goes — follows the order they were added, even within one millisecond (a
 * site created with several spaces, a clock that stands still). Inside a transaction holding the site's lock.
 */
export async function siteSpaceTimes(tx: Prisma.TransactionClient, siteId: string, now: Date): Promise<() => Date> {
  const latest = await tx.siteSpace.findFirst({ where: { siteId }, orderBy: { createdAt: 'desc' }, select: { createdAt: true } });
  let at = Math.max(now.getTime(), (latest?.createdAt.getTime() ?? -Infinity) + 1);
  return () => new Date(at++);
}
