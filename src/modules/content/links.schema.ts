import { builder } from '../../graphql/builder.ts';
import { listArgs, ListNextRef, listType } from '../../graphql/list.ts';
import { stringEnumScalar } from '../../graphql/string-enum.ts';
import { spaceContentSource } from './content.service.ts';
import { LINK_STATUSES, listFileBacklinks, listLinks, type ContentLocation, type LinkList, type LinkRecord, type LinkStatus } from './links.service.ts';

export const LinkStatusScalar = stringEnumScalar(
  'LinkStatus',
  LINK_STATUSES,
  'ok: no problem; broken: the target is missing in the revision; in-app: a URL pointing into the application',
);

const ContentReferenceRef = builder.simpleObject('ContentReference', {
  description: 'What a link points to or where it is: a URL, a page, a file or an anchor of a space',
  fields: (t) => ({
    kind: t.string({ description: 'url, page, file or anchor' }),
    url: t.string({ nullable: true }),
    page: t.string({ nullable: true, description: 'ID of the page (of an anchor: the page it is on)' }),
    file: t.string({ nullable: true, description: 'ID of the file' }),
    anchor: t.string({ nullable: true, description: 'The anchor within the page' }),
    space: t.string({ nullable: true, description: 'ID of the space' }),
  }),
});

const LinkRecordRef = builder.objectRef<LinkRecord>('LinkRecord').implement({
  description: 'A link target of the content, with where it is linked from',
  fields: (t) => ({
    status: t.field({ type: LinkStatusScalar, resolve: (r) => r.status }),
    relation: t.exposeString('relation'),
    targetReference: t.field({ type: ContentReferenceRef, resolve: (r) => r.targetReference }),
    locationReferences: t.field({ type: [ContentReferenceRef], description: 'The pages linking to it', resolve: (r) => r.locationReferences }),
  }),
});

const LinkStatsRef = builder.simpleObject('LinkStats', {
  fields: (t) => ({
    total: t.int({ description: 'Links (distinct targets) in the content read' }),
    broken: t.field({
      type: builder.simpleObject('BrokenLinkStats', {
        fields: (f) => ({
          total: f.int({ description: 'Broken links in the content read' }),
          changeRequest: f.int({
            description: "Of those, the ones a change request introduces (not broken in the space revision it is based on); 0 for a space's content",
          }),
        }),
      }),
    }),
  }),
});

export const LinkListRef = builder.objectRef<LinkList>('LinkList').implement({
  description: 'A page of links, with statistics over all links of the content',
  fields: (t) => ({
    items: t.field({ type: [LinkRecordRef], resolve: (l) => l.items }),
    count: t.exposeInt('count', { description: 'Links matching the filter' }),
    next: t.field({ type: ListNextRef, nullable: true, resolve: (l) => l.next ?? null }),
    stats: t.field({ type: LinkStatsRef, resolve: (l) => l.stats }),
  }),
});

const VersionContextRef = builder.simpleObject('VersionContext', {
  description: 'Which content a location is in: a revision, or a change request',
  fields: (t) => ({
    type: t.string({ description: 'revision or changeRequest' }),
    revision: t.string({ nullable: true, description: 'ID of the revision' }),
    changeRequest: t.string({ nullable: true, description: 'ID of the change request' }),
  }),
});

const ContentLocationRef = builder.objectRef<ContentLocation>('ContentLocation').implement({
  description: 'Where something is referenced from: a page of a space, in a revision or a change request',
  fields: (t) => ({
    kind: t.exposeString('kind'),
    organization: t.exposeString('organization', { description: 'ID of the organization' }),
    space: t.exposeString('space', { description: 'ID of the space' }),
    page: t.exposeString('page', { description: 'ID of the page' }),
    versionContext: t.field({ type: VersionContextRef, resolve: (l) => l.versionContext }),
  }),
});
export const ContentLocationList = listType('ContentLocation', ContentLocationRef);

export const linkStatusArg = builder.args((t) => ({
  status: t.field({ type: LinkStatusScalar, description: 'Only links with this status' }),
}));

builder.queryFields((t) => ({
  spaceLinks: t.field({
    type: LinkListRef,
    description: 'Links in the active content of a space, grouped by target',
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...listArgs, ...linkStatusArg },
    resolve: async (_root, { spaceId, page, limit, status }, ctx) =>
      listLinks(ctx, await spaceContentSource(ctx, spaceId), { page, limit, status: status as LinkStatus | null }),
  }),
  spacePageLinks: t.field({
    type: LinkListRef,
    description: "Links on a page of a space's active content, grouped by target",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      ...listArgs,
      ...linkStatusArg,
    },
    resolve: async (_root, { spaceId, pageId, page, limit, status }, ctx) =>
      listLinks(ctx, await spaceContentSource(ctx, spaceId), { page, limit, status: status as LinkStatus | null }, pageId),
  }),
  spaceFileBacklinks: t.field({
    type: ContentLocationList,
    description: "The pages of a space's active content that link to a file",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      fileId: t.arg.string({ required: true, description: 'ID of the file' }),
      ...listArgs,
    },
    resolve: async (_root, { spaceId, fileId, page, limit }, ctx) => listFileBacklinks(ctx, await spaceContentSource(ctx, spaceId), fileId, { page, limit }),
  }),
}));
