import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { SITE_CUSTOMIZATION_SHAPE } from './published-site.ts';
import { getSiteCustomization, SETTINGS_KEYS, updateSiteCustomization } from './site-customization.ts';
import { sitePath } from './site.schema.ts';

/** The body of GitBook's updateSiteCustomizationById is the settings object: one argument per key (SETTINGS_KEYS). */

builder.queryFields((t) => ({
  siteCustomization: t.field({
    type: 'JSON',
    description: "A site's customization (GitBook's SiteCustomizationSettings): what was set, over GitBook's defaults (members)",
    extensions: shaped(SITE_CUSTOMIZATION_SHAPE),
    args: sitePath,
    resolve: (_root, { organizationId, siteId }, ctx) => getSiteCustomization(ctx, organizationId, siteId),
  }),
}));

builder.mutationFields((t) => ({
  updateSiteCustomization: t.field({
    type: 'JSON',
    description: "Replace a site's customization whole; every key GitBook requires must be given (edit on the site)",
    extensions: shaped(SITE_CUSTOMIZATION_SHAPE),
    args: {
      ...sitePath,
      title: t.arg.string({ description: 'Title of the published site (2..128)', extensions: constrained({ minLength: 2, maxLength: 128 }) }),
      ...Object.fromEntries(SETTINGS_KEYS.map((key) => [key, t.arg({ type: 'JSON', description: `GitBook's \`${key}\` settings` })])),
    },
    resolve: (_root, { organizationId, siteId, ...settings }, ctx) => updateSiteCustomization(ctx, organizationId, siteId, settings as Record<string, unknown>),
  }),
}));
