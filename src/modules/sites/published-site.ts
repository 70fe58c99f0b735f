import type { Site } from '../../generated/prisma/client.ts';

/**
 * The customization of a published site (GitBook's `SiteCustomizationSettings`): its title, and for the
 * rest GitBook's defaults — this server keeps no theme, no header or footer links and no integrations,
 * so those are what a new GitBook site shows. Every key the description lists is there, and every key
 * GitBook's schema requires.
 */
export function siteCustomization(site: Pick<Site, 'title'>) {
  const color = (light: string, dark = light) => ({ light, dark });
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      infoColor: color('#787878'),
      successColor: color('#00C950', '#00D45E'),
      warningColor: color('#FE9A00', '#E58A00'),
      dangerColor: color('#FB2C36', '#FF4F51'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: { default: color('default-light', 'default-dark'), openapi: color('default-light', 'default-dark') },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    announcement: { enabled: false, message: 'Announcement', style: 'info' },
    themes: { default: 'system', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    aiSearch: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { items: ['markdown', 'pdf'] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

/**
 * The shape of `siteCustomization` (GitBook's `SiteCustomizationSettings`, its names and types), for the
 * OpenAPI document: every key it answers is there, so every key is required; the arrays it answers
 * empty (header links, footer groups, social accounts) are lists of objects.
 */
const color = { type: 'object', required: ['light', 'dark'], properties: { light: { type: 'string' }, dark: { type: 'string' } } };
const codeTheme = color;
const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const flag = object({ enabled: { type: 'boolean' } });
const objects = { type: 'array', items: { type: 'object' } };
export const SITE_CUSTOMIZATION_SHAPE = object({
  title: { type: 'string' },
  styling: object({
    theme: { type: 'string' },
    primaryColor: color,
    infoColor: color,
    successColor: color,
    warningColor: color,
    dangerColor: color,
    corners: { type: 'string' },
    depth: { type: 'string' },
    links: { type: 'string' },
    font: { type: 'string' },
    monospaceFont: { type: 'string' },
    codeTheme: object({ default: codeTheme, openapi: codeTheme }),
    background: { type: 'string' },
    icons: { type: 'string' },
    sidebar: object({ background: { type: 'string' }, list: { type: 'string' } }),
    search: { type: 'string' },
  }),
  internationalization: object({ locale: { type: 'string' } }),
  favicon: { type: 'object' },
  header: object({ preset: { type: 'string' }, links: objects }),
  footer: object({ groups: objects }),
  announcement: object({ enabled: { type: 'boolean' }, message: { type: 'string' }, style: { type: 'string' } }),
  themes: object({ default: { type: 'string' }, toggeable: { type: 'boolean' } }),
  pdf: flag,
  feedback: flag,
  aiSearch: flag,
  ai: object({ mode: { type: 'string' } }),
  advancedCustomization: flag,
  trademark: flag,
  externalLinks: object({ target: { type: 'string' } }),
  pagination: flag,
  pageActions: object({ items: { type: 'array', items: { type: 'string' } } }),
  privacyPolicy: { type: 'object' },
  socialPreview: { type: 'object' },
  socialAccounts: objects,
  insights: object({ trackingCookie: { type: 'boolean' } }),
});
