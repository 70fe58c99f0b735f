import type { Context } from '../../core/context.ts';
import type { VisitorProjection } from '../../graphql/visitor-projection.ts';
import { conditionHolds } from './adaptive-content.ts';
import { readerOfSite, spaceForSiteReader } from './site-readers.ts';

/**
 * What a published site's visitor sees — the holder of its `apiToken`, or anyone calling the
 * published-content roots (`publishedPage`, the URL lookup) — decided here, field by field, and nowhere
 * else (graphql/visitor-projection.ts enforces it on both doors). The rule: a visitor learns what the
 * reader shows them — pages, files, the site's navigation and public settings — and nothing of the
 * organization behind it: no user (no e-mail), no change request, comment or review, no member,
 * permission or organization setting, no adaptive-content condition (claim names), no section or
 * variant their claims do not open (the services leave those rows out: site-readers.ts).
 *
 * A type or field missing here is hidden; a hidden field is always one that may be absent (nullable):
 * a REST answer keeps its documented shape, without it. Fields the shapes require whose real value is
 * the organization's business are answered with the visitor's own value (functions below): their
 * permissions, zero review work, the default merge rules.
 */

/** Root fields a site's `apiToken` may call: reads of published content and of the site as published. */
export const SITE_READER_FIELDS: ReadonlySet<string> = new Set([
  'space',
  'revision',
  'revisionPages',
  'revisionPage',
  'revisionPageDocument',
  'revisionFiles',
  'revisionFile',
  'revisionPageByPath',
  'revisionPageMetaLinks',
  'spacePageMetaLinks',
  'publishedSite',
  'siteStructure',
  'siteCustomization',
  'siteSpaceCustomization',
  'siteSearch',
  'siteRedirectBySource',
]);

/** What a visitor may do with a space or a site: read it, nothing more. */
const VISITOR_SPACE_PERMISSIONS = {
  view: true,
  access: false,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
  installIntegration: false,
};
const VISITOR_SITE_PERMISSIONS = {
  view: true,
  access: false,
  edit: false,
  create: false,
  admin: false,
  installIntegration: false,
  viewAdaptiveSchema: false,
  editAdaptiveSchema: false,
};

/** Review work is the organization's: a visitor is told there is none. */
const none = () => 0;

const claimsFor = (ctx: Context, siteId: string) => readerOfSite(ctx, siteId)?.claims ?? {};

/** How many of the site's site spaces the visitor's claims open (the site's own count includes hidden ones). */
async function visibleSiteSpaces(site: { id: string }, ctx: Context): Promise<number> {
  const claims = claimsFor(ctx, site.id);
  const rows = await ctx.db.siteSpace.findMany({
    where: { siteId: site.id, space: { deletedAt: null, revisionId: { not: null } } },
    select: { condition: true, section: { select: { condition: true } } },
  });
  return rows.filter((row) => conditionHolds(row.condition, claims) && conditionHolds(row.section?.condition, claims)).length;
}

type Conditioned = { condition: string | null };

/** The rows of a list field that the visitor's claims open: those whose condition holds. */
const shownRows =
  (siteIdOf: (parent: any) => string) =>
  async (parent: unknown, _args: unknown, ctx: Context, own: () => unknown): Promise<Conditioned[]> => {
    const claims = claimsFor(ctx, siteIdOf(parent));
    return ((await own()) as Conditioned[]).filter((row) => conditionHolds(row.condition, claims));
  };

const all = <const T extends string>(...fields: T[]) => Object.fromEntries(fields.map((field) => [field, true])) as Record<T, true>;

export const VISITOR_PROJECTION: VisitorProjection = {
  // A root field a visitor reads its own way: a space is one the site shows them (GitBook's renderer
  // reads getSpaceById for each site space first), never by the organization's access rules.
  Query: {
    space: (_root, args: { spaceId: string }, ctx, own) => (ctx.siteReader ? spaceForSiteReader(ctx, ctx.siteReader, args.spaceId) : own()),
  },

  // Published content: a revision's pages and files.
  Revision: all('object', 'id', 'type', 'parents', 'createdAt', 'pages', 'files', 'reusableContents', 'tags', 'urls'),
  RevisionUrls: all('app', 'public', 'published'),
  RevisionPageTree: all('pages'),
  RevisionFileList: all('items', 'count', 'next'),
  ListNext: all('page'),
  RevisionFile: all('id', 'name', 'contentType', 'downloadURL', 'size', 'dimensions'),
  FileDimensions: all('width', 'height'),
  RevisionContent: all('id', 'type', 'parents', 'createdAt', 'pages', 'page', 'files'),
  ContentPage: all(
    'id',
    'kind',
    'type',
    'title',
    'emoji',
    'icon',
    'description',
    'slug',
    'path',
    'hidden',
    'noIndex',
    'noRobotsIndex',
    'layout',
    'cover',
    'document',
    'markdown',
    'pages',
    'urls',
    'createdAt',
    'updatedAt',
  ),
  ContentPageUrls: all('app'),

  // A space as a site publishes it: its profile, and the visitor's permissions on it.
  Space: {
    ...all('object', 'id', 'title', 'emoji', 'organization', 'visibility', 'revision', 'createdAt', 'updatedAt', 'deletedAt', 'editMode', 'urls'),
    // A space reaches a visitor only as one the site shows them: its published content, unless deleted.
    content: (space: { id: string; revisionId: string | null; deletedAt: Date | null }) =>
      space.deletedAt === null && space.revisionId ? { revisionId: space.revisionId, spaceId: space.id } : null,
    permissions: () => VISITOR_SPACE_PERMISSIONS,
    defaultLevel: () => 'read',
    mergeRules: () => ({ type: 'inherit' }),
    comments: none,
    changeRequests: none,
    changeRequestsOpen: none,
    changeRequestsDraft: none,
  },
  SpaceUrls: all('location', 'app', 'published', 'public', 'icon'),
  SpacePermissions: all('view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review', 'installIntegration'),

  // The site as published: its public profile and the navigation the visitor's claims open.
  PublishedContentSite: all('object', 'site', 'structure', 'customizations', 'scripts'),
  PublishedSiteStructure: all('type', 'structure'),
  Site: {
    ...all('object', 'id', 'title', 'type', 'appliedType', 'hostname', 'basename', 'proxy', 'visibility', 'defaultLevel', 'published', 'createdAt', 'urls', 'adaptiveContent', 'ads'),
    permissions: () => VISITOR_SITE_PERMISSIONS,
    features: () => [],
    siteSpaces: (site, _args, ctx) => visibleSiteSpaces(site, ctx),
  },
  SiteUrls: all('location', 'app', 'preview', 'published'),
  SiteProxy: all('origin', 'target'),
  SitePermissions: all('view', 'access', 'edit', 'create', 'admin', 'installIntegration', 'viewAdaptiveSchema', 'editAdaptiveSchema'),
  SiteFeature: all('id', 'plan', 'frozen'),
  SiteAds: all('status', 'submittable'),
  SiteAdaptiveContent: all('enabled'),
  SiteStructure: all('type', 'structure'),
  SiteSectionGroup: {
    ...all('object', 'id', 'title', 'icon', 'draft'),
    sections: shownRows((group) => group.siteId),
    children: shownRows((group) => group.siteId),
  },
  SiteSection: { ...all('object', 'id', 'title', 'description', 'icon', 'path', 'default', 'draft', 'sectionGroup', 'urls'), siteSpaces: shownRows((section) => section.siteId) },
  SiteSpace: all('object', 'id', 'title', 'path', 'default', 'draft', 'section', 'space', 'hasAdvancedCustomizationFeature', 'urls'),
  SitePublishedUrls: all('published'),
  SiteRedirectTarget: all('target', 'redirect'),
  SiteRedirect: all('object', 'id', 'source', 'destination', 'permanent', 'captureWildcard', 'draft', 'createdAt', 'updatedAt'),

  // Search of the site: what the reader's search box shows.
  SearchSpaceResultList: all('items', 'count', 'next'),
  SearchSpaceResult: all('id', 'title', 'type', 'score', 'pages'),
  SearchPageResult: all('id', 'title', 'description', 'path', 'score', 'rank', 'resultType', 'sections', 'ancestors', 'urls'),
  SearchSectionResult: all('id', 'title', 'body', 'path', 'score', 'resultType', 'urls'),
  SearchPageAncestor: all('title'),
  SearchResultUrls: all('app'),

  // One page of a published site in one request (no token needed).
  PublishedPageView: all('lookup', 'customization', 'structure', 'pages', 'page'),
};
