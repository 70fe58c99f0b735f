import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { SITE_CUSTOMIZATION_SHAPE } from './published-site.ts';
import { OVERRIDE_KEYS } from './site-customization.ts';
import { deleteSiteSpaceCustomization, getSiteSpaceCustomization, overrideSiteSpaceCustomization } from './site-space-customization.ts';
import { sitePath } from './site.schema.ts';

const siteSpacePath = {
  ...sitePath,
  ...builder.args((t) => ({
    siteSpaceId: t.string({ required: true, description: 'ID of the site space', extensions: constrained({ minLength: 1, maxLength: 64 }) }),
  })),
};

builder.queryFields((t) => ({
  siteSpaceCustomization: t.field({
    type: 'JSON',
    description: "A site space's customization: its site's, with the site space's overrides over it",
    extensions: shaped(SITE_CUSTOMIZATION_SHAPE),
    args: {
      ...siteSpacePath,
      unmasked: t.arg.boolean({ description: "GitBook's deprecated `unmasked` (nothing is masked here)" }),
    },
    resolve: (_root, { organizationId, siteId, siteSpaceId }, ctx) => getSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId),
  }),
}));

builder.mutationFields((t) => ({
  overrideSiteSpaceCustomization: t.field({
    type: 'JSON',
    description: "Override a site space's customization: given keys merge into the overrides, a null removes one (edit on the site)",
    extensions: shaped(SITE_CUSTOMIZATION_SHAPE),
    args: {
      ...siteSpacePath,
      ...Object.fromEntries(OVERRIDE_KEYS.map((key) => [key, t.arg({ type: 'JSON', description: `Override of \`${key}\` (null: the site's value)` })])),
    },
    resolve: (_root, { organizationId, siteId, siteSpaceId, ...patch }, ctx) =>
      overrideSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId, patch as Record<string, unknown>),
  }),
  deleteSiteSpaceCustomization: t.field({
    type: 'Boolean',
    description: "Remove a site space's overrides: true when there were some (REST: 205, else 204)",
    args: siteSpacePath,
    resolve: (_root, { organizationId, siteId, siteSpaceId }, ctx) => deleteSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId),
  }),
}));
