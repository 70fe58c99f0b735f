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
