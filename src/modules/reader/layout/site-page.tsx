import { renderToString } from 'preact-render-to-string';
import type { Heading, ReaderLink, SectionTab, SitePageProps, TreeItem, Variant } from './site-page-props.ts';
import { PageIcon } from './page-icons.tsx';
import { Brand, colorSchemeOf, Favicons, HeadAssets, htmlThemeAttributes, Icon, LABELS, Link, ThemeToggle } from './parts.tsx';
import { formTarget, isEmoji, safeAbsoluteUrl, safeHref, safeImageSrc, safeLang } from './safe-values.ts';

/** The inline theme script (a constant): the server allows it in its Content-Security-Policy by hash. */
export { THEME_BOOT_SCRIPT } from './parts.tsx';

/**
 * The page of a published site, drawn on the server: a complete HTML document that works without
 * JavaScript (menus are `<details>`, the sidebar opens with a checkbox, search is a GET form);
 * reader.js adds search-as-you-type, the theme toggle, copy buttons, tabs and the table of contents'
 * highlight. The hooks it relies on are listed at the top of reader.js.
 */
export function renderSitePage(props: SitePageProps): string {
  return `<!doctype html>${renderToString(<SitePage {...props} />)}`;
}

function SitePage(props: SitePageProps) {
  const { site, page, theme } = props;
  const lang = safeLang(props.lang) ?? 'en';
  // The sidebar holds the page tree and, on narrow screens, the sections, variants and header links.
  const hasSidebar = props.tree.length > 0 || props.headerLinks.length > 0 || props.variants.length > 1 || hasSectionTabs(props.tabs);
  return (
    <html lang={lang} {...htmlThemeAttributes(theme)}>
      <Head {...props} />
      <body>
        <a class="skip-link" href="#content">
          {LABELS.skip}
        </a>
        <Announcement announcement={props.announcement} />
        <header class="site-header">
          <div class="header-bar">
            {hasSidebar && (
              <label class="icon-button menu-button mobile-only" title={LABELS.menu}>
                <input type="checkbox" id="nav-toggle" class="nav-toggle" aria-controls="sidebar" />
                <Icon name="menu" />
                <span class="visually-hidden">{LABELS.menu}</span>
              </label>
            )}
            <Brand site={site} />
            <VariantMenu variants={props.variants} class="desktop-only" />
            <HeaderLinks links={props.headerLinks} class="header-links links-wide" />
            <SearchForm href={props.search.href} />
            <ThemeToggle theme={theme} />
          </div>
        </header>
        <SectionTabs tabs={props.tabs} class="section-tabs desktop-only" />
        <div class={hasSidebar ? 'layout' : 'layout no-sidebar'}>
          {hasSidebar && (
            <div class="sidebar" id="sidebar">
              <div class="drawer-extra mobile-only">
                <SectionTabs tabs={props.tabs} class="drawer-sections" />
                <VariantMenu variants={props.variants} />
              </div>
              {props.tree.length > 0 && (
                <nav class="tree-nav" aria-label={LABELS.pages}>
                  <TreeList items={props.tree} root />
                </nav>
              )}
              <HeaderLinks links={props.headerLinks} class="sidebar-links links-narrow" />
            </div>
          )}
          <main id="content" class="main" tabindex={-1}>
            <article class="page">
              <Breadcrumbs links={props.breadcrumbs} />
              <Cover cover={page.cover} />
              <header class="page-header">
                <h1 class="page-title">
                  {page.emoji ? (
                    <span class="page-emoji" aria-hidden="true">
                      {page.emoji}
                    </span>
                  ) : (
                    <PageIcon name={page.icon} class="page-icon" />
                  )}
                  {page.title}
                </h1>
                {page.description && <p class="page-description">{page.description}</p>}
              </header>
              {props.toc.length > 0 && (
                <details class="toc-inline">
                  <summary>{LABELS.onThisPage}</summary>
                  <TocNav toc={props.toc} />
                </details>
              )}
              <div class="page-body">{props.content}</div>
              <PageFooter lang={lang} lastUpdated={page.lastUpdated} previous={props.previous} next={props.next} />
            </article>
          </main>
          {props.toc.length > 0 && (
            <aside class="toc">
              <TocNav toc={props.toc} heading />
            </aside>
          )}
        </div>
        <SiteFooter footer={props.footer} />
        <div id="reader-live" class="visually-hidden" role="status" aria-live="polite" />
      </body>
    </html>
  );
}

function documentTitle(pageTitle: string, siteTitle: string): string {
  return pageTitle && pageTitle !== siteTitle ? `${pageTitle} – ${siteTitle}` : siteTitle || pageTitle;
}

/** An absolute image URL for OpenGraph: as given, or resolved against the canonical URL. */
function socialImage(image: string | null | undefined, canonical: string): string | null {
  if (!image) return null;
  const absolute = safeAbsoluteUrl(image);
  if (absolute) return absolute;
  if (!safeImageSrc(image) || image.trim().startsWith('data:')) return null;
  try {
    return safeAbsoluteUrl(new URL(image.trim(), canonical).href);
  } catch {
    return null;
  }
}

function Head(props: SitePageProps) {
  const { meta, page, site } = props;
  const title = documentTitle(page.title, site.title);
  const description = meta.description ?? page.description ?? null;
  const canonical = safeHref(meta.canonicalUrl);
  const url = safeAbsoluteUrl(meta.canonicalUrl);
  const image = socialImage(meta.image, meta.canonicalUrl);
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title}</title>
      {description && <meta name="description" content={description} />}
      {meta.noIndex && <meta name="robots" content="noindex" />}
      <meta name="color-scheme" content={colorSchemeOf(props.theme)} />
      <link rel="canonical" href={canonical} />
      {meta.alternates.map((alternate) => {
        const hreflang = safeLang(alternate.lang);
        return hreflang && <link rel="alternate" hreflang={hreflang} href={safeHref(alternate.href)} />;
      })}
      <link rel="alternate" type="text/markdown" href={safeHref(meta.markdownHref)} title={title} />
      <meta property="og:type" content="article" />
      <meta property="og:title" content={page.title || site.title} />
      {description && <meta property="og:description" content={description} />}
      {url && <meta property="og:url" content={url} />}
      <meta property="og:site_name" content={site.title} />
      {image && <meta property="og:image" content={image} />}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={page.title || site.title} />
      {description && <meta name="twitter:description" content={description} />}
      {image && <meta name="twitter:image" content={image} />}
      <Favicons site={site} />
      <HeadAssets assets={props.assets} theme={props.theme} />
    </head>
  );
}

const ANNOUNCEMENT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

function Announcement({ announcement }: { announcement: SitePageProps['announcement'] }) {
  if (!announcement?.message) return null;
  const style = ANNOUNCEMENT_STYLES.has(announcement.style) ? announcement.style : 'info';
  return (
    <section class="announcement" data-style={style} aria-label={LABELS.announcement}>
      <p>
        {announcement.message}
        {announcement.link && (
          <>
            {' '}
            <Link link={announcement.link} class="announcement-link" />
          </>
        )}
      </p>
    </section>
  );
}

function HeaderLinks({ links, class: className }: { links: ReaderLink[]; class: string }) {
  if (!links.length) return null;
  return (
    <nav class={className} aria-label={LABELS.siteLinks}>
      <ul>
        {links.map((link) => (
          <li>
            <Link link={link} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The site search: a GET form (the results page without JavaScript); reader.js reads `data-search`. */
function SearchForm({ href }: { href: string }) {
  const { action, fields } = formTarget(href);
  return (
    <form class="search" role="search" action={action} method="get" data-search={safeHref(href)}>
      <label class="visually-hidden" for="search-input">
        {LABELS.search}
      </label>
      <Icon name="search" class="search-icon" />
      <input
        id="search-input"
        class="search-input"
        type="search"
        name="q"
        placeholder={LABELS.searchPlaceholder}
        autocomplete="off"
        spellcheck={false}
        aria-keyshortcuts="/ Control+K Meta+K"
      />
      {fields
        .filter(([name]) => name !== 'q' && name !== 'html')
        .map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
      <input type="hidden" name="html" value="1" />
    </form>
  );
}

function VariantMenu({ variants, class: className }: { variants: Variant[]; class?: string }) {
  if (variants.length < 2) return null;
  const current = variants.find((variant) => variant.current) ?? variants[0];
  return (
    <nav class={className ? `variant-nav ${className}` : 'variant-nav'} aria-label={LABELS.variants}>
      <details class="menu">
        <summary class="menu-button-text">
          <span class="visually-hidden">{LABELS.variant} </span>
          {current.title}
        </summary>
        <ul class="menu-list">
          {variants.map((variant) => {
            const lang = safeLang(variant.lang) ?? undefined;
            return (
              <li>
                <a href={safeHref(variant.href)} hreflang={lang} lang={lang} aria-current={variant.current ? 'true' : undefined}>
                  {variant.title}
                </a>
              </li>
            );
          })}
        </ul>
      </details>
    </nav>
  );
}

function TabIcon({ icon }: { icon?: string | null }) {
  return isEmoji(icon) ? (
    <span class="tab-icon" aria-hidden="true">
      {icon}
    </span>
  ) : (
    <PageIcon name={icon} class="tab-icon" />
  );
}

const hasSectionTabs = (tabs: SectionTab[]) => tabs.length > 1 || tabs.some((tab) => tab.kind === 'group');

/** The site's sections: links, and groups of sections as `<details>` menus. Drawn when there is a choice. */
function SectionTabs({ tabs, class: className }: { tabs: SectionTab[]; class: string }) {
  if (!hasSectionTabs(tabs)) return null;
  return (
    <nav class={className} aria-label={LABELS.sections}>
      <ul class="tab-list">
        {tabs.map((tab) =>
          tab.kind === 'section' ? (
            <li>
              <a class="section-tab" href={safeHref(tab.href)} aria-current={tab.current ? 'true' : undefined}>
                <TabIcon icon={tab.icon} />
                {tab.title}
              </a>
            </li>
          ) : (
            <li>
              <details class="menu">
                <summary class="section-tab" data-current={tab.current ? '' : undefined}>
                  {tab.title}
                </summary>
                <ul class="menu-list">
                  {tab.sections.map((section) => (
                    <li>
                      <a href={safeHref(section.href)} aria-current={section.current ? 'true' : undefined}>
                        <TabIcon icon={section.icon} />
                        {section.title}
                      </a>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

function TreeList({ items, root }: { items: TreeItem[]; root?: boolean }) {
  return (
    <ul class={root ? 'tree' : undefined}>
      {items.map((item) => (
        <TreeNode item={item} />
      ))}
    </ul>
  );
}

/**
 * One entry of the page tree. Groups are headings; a page with children has its link and, beside it, a
 * `<details>` toggle holding the children (open along the current page's path), so that the link and the
 * toggle are two controls — never one inside the other — and both work without JavaScript.
 */
function TreeNode({ item }: { item: TreeItem }) {
  const label = (
    <>
      {item.emoji ? (
        <span class="tree-emoji" aria-hidden="true">
          {item.emoji}
        </span>
      ) : (
        <PageIcon name={item.icon} class="tree-icon" />
      )}
      {item.title}
    </>
  );
  const children = item.children.length > 0 && <TreeList items={item.children} />;
  if (item.kind === 'group') {
    return (
      <li class="tree-group">
        <h2 class="tree-heading">{label}</h2>
        {children}
      </li>
    );
  }
  return (
    <li>
      {item.href ? (
        <Link link={{ title: item.title, href: item.href }} external={item.kind === 'link' && item.external === true} current={item.current ? 'page' : undefined}>
          {label}
        </Link>
      ) : (
        <span class="tree-text">{label}</span>
      )}
      {children && (
        <details open={item.expanded}>
          <summary title={`${LABELS.pagesUnder} ${item.title}`}>
            <span class="visually-hidden">
              {LABELS.pagesUnder} {item.title}
            </span>
          </summary>
          {children}
        </details>
      )}
    </li>
  );
}

function Breadcrumbs({ links }: { links: ReaderLink[] }) {
  if (!links.length) return null;
  return (
    <nav class="breadcrumbs" aria-label={LABELS.breadcrumb}>
      <ol>
        {links.map((link) => (
          <li>
            <Link link={link} />
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Cover({ cover }: { cover: SitePageProps['page']['cover'] }) {
  const src = safeImageSrc(cover?.url);
  if (!cover || !src) return null;
  const size = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : undefined);
  return <img class="cover" src={src} alt="" width={size(cover.width)} height={size(cover.height)} />;
}

/** The on-page table of contents (the aside on wide screens, a `<details>` above the content otherwise). */
function TocNav({ toc, heading }: { toc: Heading[]; heading?: boolean }) {
  const top = Math.min(...toc.map((h) => h.level));
  return (
    <nav class="toc-nav" aria-label={LABELS.onThisPage}>
      {heading && <h2 class="toc-title">{LABELS.onThisPage}</h2>}
      <ul class="toc-list">
        {toc.map((h) => (
          <li class={`toc-depth-${Math.max(0, Math.min(2, h.level - top))}`}>
            <a href={`#${h.id}`}>{h.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Date formats by language: making one costs about a millisecond (ICU data), using one microseconds. */
const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

function dateFormat(lang: string): Intl.DateTimeFormat | null {
  let format = dateFormats.get(lang);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      format = null;
    }
    // Languages come from customizations (validated tags): few, but bounded anyway.
    if (dateFormats.size < 100) dateFormats.set(lang, format);
  }
  return format;
}

function formatDate(iso: string, lang: string): { datetime: string; text: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const datetime = date.toISOString();
  return { datetime, text: dateFormat(lang)?.format(date) ?? datetime.slice(0, 10) };
}

function PageFooter(props: { lang: string; lastUpdated?: string | null; previous?: ReaderLink | null; next?: ReaderLink | null }) {
  const updated = props.lastUpdated ? formatDate(props.lastUpdated, props.lang) : null;
  const { previous, next } = props;
  if (!updated && !previous && !next) return null;
  return (
    <footer class="page-footer">
      {updated && (
        <p class="last-updated">
          {LABELS.lastUpdated} <time datetime={updated.datetime}>{updated.text}</time>
        </p>
      )}
      {(previous || next) && (
        <nav class="pager" aria-label={LABELS.pager}>
          {previous && (
            <a class="pager-prev" rel="prev" href={safeHref(previous.href)}>
              <span class="pager-label">
                <span aria-hidden="true">← </span>
                {LABELS.previous}
              </span>
              <span class="pager-title">{previous.title}</span>
            </a>
          )}
          {next && (
            <a class="pager-next" rel="next" href={safeHref(next.href)}>
              <span class="pager-label">
                {LABELS.next}
                <span aria-hidden="true"> →</span>
              </span>
              <span class="pager-title">{next.title}</span>
            </a>
          )}
        </nav>
      )}
    </footer>
  );
}

function SiteFooter({ footer }: { footer: SitePageProps['footer'] }) {
  if (!footer || (!footer.copyright && !footer.groups.length)) return null;
  return (
    <footer class="site-footer">
      <div class="footer-inner">
        {footer.groups.length > 0 && (
          <nav class="footer-groups" aria-label={LABELS.footer}>
            {footer.groups.map((group) => (
              <div class="footer-group">
                <h2>{group.title}</h2>
                <ul>
                  {group.links.map((link) => (
                    <li>
                      <Link link={link} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        )}
        {footer.copyright && <p class="copyright">{footer.copyright}</p>}
      </div>
    </footer>
  );
}
