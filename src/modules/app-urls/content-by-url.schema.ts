import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { ChangeRequestRef } from '../change-requests/index.ts';
import { CollectionRef } from '../collections/index.ts';
import { pageWithBodyShape } from '../content/index.ts';
import { SpaceRef } from '../spaces/index.ts';
import { contentByUrl, MAX_APP_URL, type ContentAtUrl } from './content-by-url.ts';

const ContentAtUrlRef = builder.objectRef<ContentAtUrl>('ContentAtUrl').implement({
  description: "What an application URL shows: a collection, or a space with the change request and page the URL names",
  fields: (t) => ({
    collection: t.field({ type: CollectionRef, nullable: true, resolve: (c) => c.collection ?? null }),
    space: t.field({ type: SpaceRef, nullable: true, resolve: (c) => c.space ?? null }),
    changeRequest: t.field({ type: ChangeRequestRef, nullable: true, resolve: (c) => c.changeRequest ?? null }),
    page: t.field({ type: 'JSON', nullable: true, extensions: shaped(pageWithBodyShape), resolve: (c) => c.page ?? null }),
  }),
});

builder.queryFields((t) => ({
  contentByUrl: t.field({
    type: ContentAtUrlRef,
    description: "The collection, space, change request or page an application URL (a `urls.app`) shows, for a caller who may read it",
    args: { url: t.arg.string({ required: true, description: 'The application URL', extensions: constrained({ minLength: 1, maxLength: MAX_APP_URL }) }) },
    resolve: (_root, { url }, ctx) => contentByUrl(ctx, url),
  }),
}));
