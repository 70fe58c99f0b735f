import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context, SiteReader } from '../../core/context.ts';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../core/errors.ts';
import { conditionHolds } from './adaptive-content.ts';
import { siteFor } from './site-access.ts';
import { sitePolicy } from './site.policy.ts';
import { siteOpenTo } from './site-readers.ts';

/**
 * The site spaces (variants) of a site that a search of it may read, for the caller: the site's members
 * who may read it (site.policy.ts) — every site space, published or not; the holder of the site's
 * `apiToken` (site-readers.ts) — while the site is open to them, the site spaces whose own condition and
 * whose section's condition hold for their claims. Deleted spaces and spaces without content never.
 * Anyone else — another site's reader, an outsider, an unknown site — gets the 404 of an unknown site.
 * One statement for a reader (the site with its sections, site spaces, their spaces and the share
 * link); for a member, that and their membership, run together.
 */
export interface SearchableSiteSpace {
  id: string;
  /** Its section (null on a site without sections). */
  sectionId: string | null;
  isDefault: boolean;
  space: { id: string; title: string; revisionId: string; searchRevisionId: string | null };
}

const SITE_SPACES = {
  sections: { select: { id: true, condition: true } },
  siteSpaces: {
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      sectionId: true,
      isDefault: true,
      condition: true,
      space: { select: { id: true, title: true, revisionId: true, searchRevisionId: true, deletedAt: true } },
    },
  },
} satisfies Prisma.SiteInclude;

type SiteWithSpaces = Prisma.SiteGetPayload<{ include: typeof SITE_SPACES }>;

export async function searchableSiteSpaces(ctx: Context, organizationId: string, siteId: string): Promise<SearchableSiteSpace[]> {
  if (ctx.siteReader) return readerSearchableSiteSpaces(ctx.db, ctx.siteReader, organizationId, siteId);
  const { site } = await siteFor(ctx, organizationId, siteId, 'read', { include: SITE_SPACES });
  return searchableOf(site as SiteWithSpaces, null);
}

/** The site spaces a site's reader may search (the apiToken's holder, or the reader's own visitor): no request context needed. */
export async function readerSearchableSiteSpaces(db: Db, reader: SiteReader, organizationId: string, siteId: string): Promise<SearchableSiteSpace[]> {
  return searchableOf(await siteForSearchReader(db, reader, organizationId, siteId), reader);
}

function searchableOf(site: SiteWithSpaces, reader: SiteReader | null): SearchableSiteSpace[] {
  const shownSections = new Set(site.sections.filter((section) => !reader || conditionHolds(section.condition, reader.claims)).map((section) => section.id));
  const searchable: SearchableSiteSpace[] = [];
  for (const siteSpace of site.siteSpaces) {
    const { space } = siteSpace;
    if (space.deletedAt !== null || space.revisionId === null) continue;
    if (reader && (!conditionHolds(siteSpace.condition, reader.claims) || (siteSpace.sectionId !== null && !shownSections.has(siteSpace.sectionId)))) continue;
    searchable.push({
      id: siteSpace.id,
      sectionId: siteSpace.sectionId,
      isDefault: siteSpace.isDefault,
      space: { id: space.id, title: space.title, revisionId: space.revisionId, searchRevisionId: space.searchRevisionId },
    });
  }
  return searchable;
}

/** The reader's own site, while open to them, with what a search needs (one statement). */
async function siteForSearchReader(db: Db, reader: SiteReader, organizationId: string, siteId: string): Promise<SiteWithSpaces> {
  const notFound = new NotFoundError(sitePolicy.notFound({ id: siteId, createdById: null }));
  if (reader.siteId !== siteId || reader.organizationId !== organizationId) throw notFound;
  const site = await db.site.findUnique({
    relationLoadStrategy: 'join',
    where: { id: siteId },
    include: { ...SITE_SPACES, shareLinks: { where: { key: reader.shareKey ?? '', active: true }, select: { id: true } } },
  });
  if (!site || site.organizationId !== organizationId || !siteOpenTo({ ...site, shareLinkActive: site.shareLinks.length > 0 }, reader)) throw notFound;
  return site;
}
