import type { ComponentChildren } from 'preact';
import type { ReaderLink, SitePageProps, ThemeMode } from './site-page-props.ts';
import { emojiFaviconUrl, readableOn, safeColor, safeHref, safeImageSrc } from './safe-values.ts';

/**
 * What the site page and the error page share: the theme (boot script, colours), the head's icons and
 * assets, the brand, the theme toggle, the icons. Every user text goes through JSX (escaped); the one
 * `dangerouslySetInnerHTML` is THEME_BOOT_SCRIPT, a constant.
 */

/** The interface's words (English; the place to translate them by `lang` later). */
export const LABELS = {
  skip: 'Skip to content',
  menu: 'Menu',
  search: 'Search',
  searchPlaceholder: 'Search… (press /)',
  darkTheme: 'Dark theme',
  pages: 'Pages',
  sections: 'Sections',
  variants: 'Variants',
  variant: 'Variant:',
  siteLinks: 'Site links',
  breadcrumb: 'Breadcrumb',
  onThisPage: 'On this page',
  lastUpdated: 'Last updated',
  previous: 'Previous',
  next: 'Next',
  pager: 'Previous and next pages',
  external: '(external)',
  pagesUnder: 'Pages under',
  announcement: 'Announcement',
  footer: 'Footer',
  home: 'home',
} as const;

/**
 * The background colours of reader.css (`--bg`, `--surface`) per theme: the primary colour is made
 * readable on both (test/reader/site-page.test.tsx checks they match the stylesheet).
 */
export const BACKGROUNDS = { light: ['#ffffff', '#f5f6f8'], dark: ['#101317', '#181c22'] } as const;

/**
 * Runs in `<head>` before the first paint: marks that JavaScript runs (`.js`: shows the theme toggle) and,
 * when the reader may toggle the theme, applies the one they chose (localStorage `theme`). A constant —
 * never user data — so that a Content-Security-Policy can allow it by its hash.
 */
export const THEME_BOOT_SCRIPT =
  "(function(){var d=document.documentElement;d.classList.add('js');if(!d.hasAttribute('data-theme-toggleable'))return;try{var t=localStorage.getItem('theme');if(t==='light'||t==='dark')d.setAttribute('data-theme',t)}catch(e){}})()";

const THEME_MODES: ThemeMode[] = ['light', 'dark', 'system'];

export type Theme = SitePageProps['theme'];

/** The `<html>` attributes of the theme: `data-theme` (light, dark or system) and whether it may be toggled. */
export function htmlThemeAttributes(theme: Theme | null | undefined): Record<string, string | undefined> {
  const mode = theme && THEME_MODES.includes(theme.defaultMode) ? theme.defaultMode : 'system';
  return { 'data-theme': mode, 'data-theme-toggleable': theme?.toggleable ? '' : undefined };
}

/** `color-scheme` for the browser's own widgets before the stylesheet loads. */
export function colorSchemeOf(theme: Theme | null | undefined): string {
  if (!theme || theme.toggleable || theme.defaultMode === 'system') return 'light dark';
  return theme.defaultMode === 'dark' ? 'dark' : 'light';
}

const SYSTEM = ':root:not([data-theme=light],[data-theme=dark])';

/**
 * The site's primary colour as CSS variables, or null when neither colour is a hex colour. `--primary`
 * is the colour made readable as text on the theme's backgrounds (links are drawn in it);
 * `--primary-brand` is the colour as given (borders, accents).
 */
export function themeStyle(theme: Theme | null | undefined): string | null {
  const light = safeColor(theme?.primaryColor?.light);
  const dark = safeColor(theme?.primaryColor?.dark);
  const rules: string[] = [];
  if (light) rules.push(`:root{--primary:${readableOn(light, [...BACKGROUNDS.light])};--primary-brand:${light}}`);
  if (dark) {
    const vars = `{--primary:${readableOn(dark, [...BACKGROUNDS.dark])};--primary-brand:${dark}}`;
    rules.push(`[data-theme=dark]${vars}`, `@media (prefers-color-scheme:dark){${SYSTEM}${vars}}`);
  }
  return rules.length ? rules.join('') : null;
}

/** The favicon links: the icon's URLs (per colour scheme when they differ), else the emoji drawn as SVG. */
export function Favicons({ site }: { site: SitePageProps['site'] | null | undefined }) {
  const light = safeImageSrc(site?.icon?.light);
  const dark = safeImageSrc(site?.icon?.dark);
  if (light && dark && light !== dark) {
    return (
      <>
        <link rel="icon" href={light} media="(prefers-color-scheme: light)" />
        <link rel="icon" href={dark} media="(prefers-color-scheme: dark)" />
      </>
    );
  }
  if (light || dark) return <link rel="icon" href={(light ?? dark) as string} />;
  // Without an icon of its own a site still names one: a browser would otherwise ask the host's
  // /favicon.ico, which is no site's (a 404 in every reader's console).
  return <link rel="icon" href={emojiFaviconUrl(site?.emoji || '📄')} />;
}

/** The head's end: the boot script (before the stylesheet, so it does not wait for it), CSS, colours, script. */
export function HeadAssets({ assets, theme }: { assets: SitePageProps['assets']; theme: Theme | null | undefined }) {
  const style = themeStyle(theme);
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      <link rel="stylesheet" href={safeHref(assets.css)} />
      {style && <style>{style}</style>}
      <script src={safeHref(assets.js)} defer />
    </>
  );
}

/** The light and dark versions of an image, each shown in its theme (`when-light` / `when-dark`). */
function ThemedImage({ light, dark, alt, class: className }: { light: string | null; dark: string | null; alt: string; class: string }) {
  if (light && dark && light !== dark) {
    return (
      <>
        <img class={`${className} when-light`} src={light} alt={alt} />
        <img class={`${className} when-dark`} src={dark} alt={alt} />
      </>
    );
  }
  const src = light ?? dark;
  return src ? <img class={className} src={src} alt={alt} /> : null;
}

/** The site's logo (its name drawn in it), else its icon or emoji and its title; a link home. */
export function Brand({ site }: { site: SitePageProps['site'] }) {
  const logoLight = safeImageSrc(site.logo?.light);
  const logoDark = safeImageSrc(site.logo?.dark);
  if (logoLight || logoDark) {
    return (
      <a class="brand" href={safeHref(site.homeHref)}>
        <ThemedImage class="brand-logo" light={logoLight} dark={logoDark} alt={site.title} />
      </a>
    );
  }
  const iconLight = safeImageSrc(site.icon?.light);
  const iconDark = safeImageSrc(site.icon?.dark);
  return (
    <a class="brand" href={safeHref(site.homeHref)}>
      {iconLight || iconDark ? (
        <ThemedImage class="brand-icon" light={iconLight} dark={iconDark} alt="" />
      ) : (
        site.emoji && (
          <span class="brand-emoji" aria-hidden="true">
            {site.emoji}
          </span>
        )
      )}
      <span class="brand-title">{site.title}</span>
    </a>
  );
}

/** Shown only when JavaScript runs (`.js`); reader.js keeps `aria-pressed` in step with the theme. */
export function ThemeToggle({ theme }: { theme: Theme | null | undefined }) {
  if (!theme?.toggleable) return null;
  return (
    <button type="button" class="icon-button theme-toggle" data-theme-toggle="" aria-pressed={theme.defaultMode === 'dark' ? 'true' : 'false'} title={LABELS.darkTheme}>
      <span class="visually-hidden">{LABELS.darkTheme}</span>
      <Icon name="sun" class="when-light" />
      <Icon name="moon" class="when-dark" />
    </button>
  );
}

const ICON_PATHS = {
  sun: 'M12 4V2m0 20v-2m8-8h2M2 12h2m13.66-5.66 1.41-1.41M4.93 19.07l1.41-1.41m0-11.32L4.93 4.93m14.14 14.14-1.41-1.41M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0Z',
  moon: 'M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z',
  menu: 'M4 6h16M4 12h16M4 18h16',
  search: 'm20 20-4.35-4.35M17 10.5a6.5 6.5 0 1 1-13 0 6.5 6.5 0 0 1 13 0Z',
  external: 'M14 4h6v6m0-6L10 14M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
} as const;

/** A decorative line icon (hidden from assistive technology: its meaning is said in text beside it). */
export function Icon({ name, class: className }: { name: keyof typeof ICON_PATHS; class?: string }) {
  return (
    <svg class={className ? `ui-icon ${className}` : 'ui-icon'} viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={ICON_PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

/** A link; external ones say so (an icon, hidden words for screen readers, the URL when printed). */
export function Link(props: { link: ReaderLink; external?: boolean; current?: 'page' | 'true'; class?: string; children?: ComponentChildren }) {
  const { link, external, current } = props;
  const classes = [props.class, external ? 'external' : null].filter(Boolean).join(' ') || undefined;
  return (
    <a class={classes} href={safeHref(link.href)} rel={external ? 'noopener' : undefined} aria-current={current}>
      {props.children ?? link.title}
      {external && (
        <>
          <span class="visually-hidden"> {LABELS.external}</span>
          <Icon name="external" class="external-icon" />
        </>
      )}
    </a>
  );
}
