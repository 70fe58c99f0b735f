import type { SpaceVisibility } from '../../generated/prisma/client.ts';
import { stringEnumScalar } from '../../graphql/string-enum.ts';

/** Documented spellings (with "-") ↔ stored enum values (Prisma/GraphQL names cannot contain "-"). */
export const CONTENT_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type ContentVisibility = (typeof CONTENT_VISIBILITIES)[number];

export const toApiVisibility = (v: SpaceVisibility): ContentVisibility => v.replace('_', '-') as ContentVisibility;
export const fromApiVisibility = (v: ContentVisibility): SpaceVisibility => v.replace('-', '_') as SpaceVisibility;

export const ContentVisibilityScalar = stringEnumScalar(
  'ContentVisibility',
  CONTENT_VISIBILITIES,
  'Who can access the content: public (anyone, indexed), unlisted (anyone, not indexed), share-link (anyone with the secret link), visitor-auth (visitors authenticated by JWT), in-collection (whoever can access the parent collection), private (authorized members)',
);
