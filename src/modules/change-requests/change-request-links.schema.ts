import { builder } from '../../graphql/builder.ts';
import { listArgs } from '../../graphql/list.ts';
import { ContentLocationList, LinkListRef } from '../content/index.ts';
import { listFileBacklinks, listLinks } from '../content/index.ts';
import { changeRequestArgs } from './change-request.schema.ts';
import { changeRequestContentSource } from './change-request-content.ts';

/** Links of a change request's revision, read like a space's (same services, same shapes). */
builder.queryFields((t) => ({
  changeRequestPageLinks: t.field({
    type: LinkListRef,
    description:
      "Links on a page of a change request's revision, grouped by target; `stats.broken.changeRequest` counts the broken ones it introduces",
    args: {
      ...changeRequestArgs,
      pageId: t.arg.string({ required: true, description: 'ID of the page' }),
      ...listArgs,
    },
    resolve: async (_root, { spaceId, changeRequestId, pageId, page, limit }, ctx) =>
      listLinks(ctx, await changeRequestContentSource(ctx, spaceId, changeRequestId), { page, limit }, pageId),
  }),
  changeRequestFileBacklinks: t.field({
    type: ContentLocationList,
    description: "The pages of a change request's revision that link to a file",
    args: {
      ...changeRequestArgs,
      fileId: t.arg.string({ required: true, description: 'ID of the file' }),
      ...listArgs,
    },
    resolve: async (_root, { spaceId, changeRequestId, fileId, page, limit }, ctx) =>
      listFileBacklinks(ctx, await changeRequestContentSource(ctx, spaceId, changeRequestId), fileId, { page, limit }),
  }),
}));
