import type { ComponentChildren } from 'preact';

/**
 * What the page layout draws (site-page.tsx), already decided by the reader's service (reader-page.ts):
 * every href is final (base paths, variants and share keys applied), every text is the reader's to see.
 * The layout decides nothing about access or URLs; it only draws.
 */

export interface ReaderLink {
  title: string;
  href: string;
}

/** One entry of the sidebar's page tree. Hidden pages are not listed (they are reachable by URL). */
export interface TreeItem {
  kind: 'group' | 'document' | 'link';
  title: string;
  /** Documents and links (a link's target may be external: `external: true`). Groups have none. */
  href?: string;
  external?: boolean;
  emoji?: string | null;
  /** An icon name (page-icons.tsx), drawn when there is no emoji. */
  icon?: string | null;
  /** The page being read. */
  current: boolean;
  /** An ancestor of the current page (or the current page itself): drawn open. */
  expanded: boolean;
  children: TreeItem[];
}

/** A tab of the header: a section, or a group of sections drawn as a menu. */
export type SectionTab =
  | { kind: 'section'; title: string; href: string; icon?: string | null; current: boolean }
  | { kind: 'group'; title: string; current: boolean; sections: { title: string; href: string; icon?: string | null; current: boolean }[] };

export interface Variant {
  title: string;
  /** The same page path in that variant when it exists there, else the variant's home. */
  href: string;
  current: boolean;
  /** Its language, when the site space names one (for `hreflang`). */
  lang?: string | null;
}

export interface Heading {
  /** The anchor (`id` of the heading element). */
  id: string;
  title: string;
  level: 1 | 2 | 3;
}

export type ThemeMode = 'light' | 'dark' | 'system';

export interface SitePageProps {
  /** `<html lang>`: the customization's locale. */
  lang: string;
  site: {
    title: string;
    /** The site's home (its default section and variant). */
    homeHref: string;
    logo?: { light: string; dark: string } | null;
    /** A favicon / header icon URL, or an emoji. */
    icon?: { light: string; dark: string } | null;
    emoji?: string | null;
  };
  theme: {
    primaryColor: { light: string; dark: string };
    /** What the page starts as; `system` follows `prefers-color-scheme`. */
    defaultMode: ThemeMode;
    /** Whether the reader may toggle it (the toggle persists in localStorage). */
    toggleable: boolean;
  };
  headerLinks: ReaderLink[];
  announcement?: { message: string; link?: ReaderLink | null; style: 'info' | 'warning' | 'danger' | 'success' } | null;
  tabs: SectionTab[];
  variants: Variant[];
  tree: TreeItem[];
  breadcrumbs: ReaderLink[];
  page: {
    title: string;
    description?: string | null;
    emoji?: string | null;
    /** An icon name (page-icons.tsx), drawn when there is no emoji. */
    icon?: string | null;
    cover?: { url: string; width?: number | null; height?: number | null } | null;
    /** ISO date of the revision the page was last changed in (drawn as "Last updated"). */
    lastUpdated?: string | null;
  };
  /** The headings of the page (on-page table of contents; the script highlights the current one). */
  toc: Heading[];
  previous?: ReaderLink | null;
  next?: ReaderLink | null;
  /** The page's document, rendered (document/render-document.tsx). */
  content: ComponentChildren;
  meta: {
    canonicalUrl: string;
    /** `noindex` (unlisted sites, pages marked noIndex / noRobotsIndex). */
    noIndex: boolean;
    /** The same page in the other variants (`<link rel="alternate" hreflang>`). */
    alternates: { href: string; lang?: string | null }[];
    description?: string | null;
    /** OpenGraph / Twitter image (the cover or the site's social preview). */
    image?: string | null;
    /** The page's markdown (`<link rel="alternate" type="text/markdown">`). */
    markdownHref: string;
  };
  /** Where the stylesheet and the script are (content-hashed, long-cached). */
  assets: { css: string; js: string };
  /** The site's search: GET `<search>?q=` answers SearchAnswer (JSON); the form works without JavaScript too (`<search>?q=&html=1`). */
  search: { href: string };
  footer?: { copyright?: string | null; groups: { title: string; links: ReaderLink[] }[] } | null;
}

/** What the site's search endpoint answers, for the script's search-as-you-type. Texts are plain (no HTML). */
export interface SearchAnswer {
  query: string;
  pages: {
    title: string;
    href: string;
    /** The page's ancestors' titles. */
    breadcrumbs: string[];
    sections: {
      title: string;
      /** The section's anchor on the page. */
      href: string;
      /** The excerpt, split into runs: `match: true` runs are the matched words (drawn as `<mark>`). */
      excerpt: { text: string; match: boolean }[];
    }[];
  }[];
}

/** An error page in the site's style (404, 401, 5xx). */
export interface ErrorPageProps {
  lang: string;
  status: number;
  title: string;
  message: string;
  /** Where to go instead (the site's home, or the sign-in). */
  link?: ReaderLink | null;
  site?: SitePageProps['site'] | null;
  theme?: SitePageProps['theme'] | null;
  assets: SitePageProps['assets'];
}
