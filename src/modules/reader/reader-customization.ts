import type { PageEntry } from '../content/index.ts';
import type { ReaderLink, SitePageProps, ThemeMode } from './layout/site-page-props.ts';

/**
 * What the reader draws of a site's customization (GitBook's SiteCustomizationSettings, defaults
 * filled in by the sites module): title, logo, icon, colours, theme, header and footer links, the
 * announcement, the locale. The stored settings were validated when written, but they are read here
 * as untrusted shapes: every field is checked for its type, and a link is kept only when it is a page
 * of this variant or an http(s) / mailto URL.
 */

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown, max = 1024): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : null);
const HEX = /^#[0-9a-fA-F]{3,8}$/;
const color = (v: unknown, fallback: { light: string; dark: string }) =>
  isObject(v) && typeof v.light === 'string' && HEX.test(v.light) && typeof v.dark === 'string' && HEX.test(v.dark) ? { light: v.light, dark: v.dark } : fallback;

/** An URL a reader may follow: http(s) or mailto, nothing that runs. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Where a customization link (a GitBook ContentRef) goes for this reader, or null. */
function refHref(ref: unknown, pageHref: (pageId: string) => string | null): string | null {
  if (!isObject(ref)) return null;
  if (ref.kind === 'url') return safeUrl(ref.url);
  if (ref.kind === 'page' && typeof ref.page === 'string') return pageHref(ref.page);
  return null;
}

function links(items: unknown, pageHref: (pageId: string) => string | null, max = 20): ReaderLink[] {
  if (!Array.isArray(items)) return [];
  const out: ReaderLink[] = [];
  for (const item of items.slice(0, max)) {
    if (!isObject(item)) continue;
    const title = text(item.title, 200);
    const href = refHref(item.to, pageHref);
    if (title && href) out.push({ title, href });
  }
  return out;
}

export interface ReaderCustomization {
  lang: string;
  site: Omit<SitePageProps['site'], 'homeHref'>;
  theme: SitePageProps['theme'];
  headerLinks: ReaderLink[];
  announcement: SitePageProps['announcement'];
  footer: SitePageProps['footer'];
  socialImage: string | null;
}

export function readerCustomization(settings: Record<string, unknown>, siteTitle: string, pageHref: (pageId: string) => string | null): ReaderCustomization {
  const styling = isObject(settings.styling) ? settings.styling : {};
  const themes = isObject(settings.themes) ? settings.themes : {};
  const header = isObject(settings.header) ? settings.header : {};
  const favicon = isObject(settings.favicon) ? settings.favicon : {};
  const footer = isObject(settings.footer) ? settings.footer : {};
  const announcement = isObject(settings.announcement) ? settings.announcement : {};
  const i18n = isObject(settings.internationalization) ? settings.internationalization : {};
  const social = isObject(settings.socialPreview) ? settings.socialPreview : {};
  const logo = isObject(header.logo) ? { light: safeUrl(header.logo.light), dark: safeUrl(header.logo.dark) } : null;
  const icon = isObject(favicon.icon) ? { light: safeUrl(favicon.icon.light), dark: safeUrl(favicon.icon.dark) } : null;
  const defaultMode = themes.default === 'light' || themes.default === 'dark' ? (themes.default as ThemeMode) : 'system';
  const style = announcement.style;
  const lang = text(i18n.locale, 10);
  return {
    lang: lang && /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(lang) ? lang : 'en',
    site: {
      title: text(settings.title, 128) ?? siteTitle,
      logo: logo?.light ? { light: logo.light, dark: logo.dark ?? logo.light } : null,
      icon: icon?.light ? { light: icon.light, dark: icon.dark ?? icon.light } : null,
      emoji: text(favicon.emoji, 16),
    },
    theme: {
      primaryColor: color(styling.primaryColor, { light: '#346ddb', dark: '#6c9cf0' }),
      defaultMode,
      toggleable: themes.toggeable !== false,
    },
    headerLinks: links(header.links, pageHref),
    announcement:
      announcement.enabled === true && text(announcement.message)
        ? {
            message: text(announcement.message)!,
            link: isObject(announcement.link) ? (links([announcement.link], pageHref)[0] ?? null) : null,
            style: style === 'warning' || style === 'danger' || style === 'success' ? style : 'info',
          }
        : null,
    footer: {
      copyright: isObject(footer) ? text(footer.copyright, 500) : null,
      groups: Array.isArray(footer.groups)
        ? footer.groups
            .slice(0, 10)
            .filter(isObject)
            .map((group) => ({ title: text(group.title, 200) ?? '', links: links(group.links, pageHref) }))
            .filter((group) => group.links.length > 0)
        : [],
    },
    socialImage: safeUrl(social.url),
  };
}

/** A page's description for meta tags: its own, else none. */
export const pageDescription = (page: PageEntry) => (page.description ? page.description.slice(0, 300) : null);
