import { renderToString } from 'preact-render-to-string';
import { Brand, colorSchemeOf, Favicons, HeadAssets, htmlThemeAttributes, LABELS, Link, ThemeToggle } from './parts.tsx';
import { safeLang } from './safe-values.ts';
import type { ErrorPageProps } from './site-page-props.ts';

/**
 * An error page (404, 401, 5xx) in the site's style: the site's header when the site is known, the
 * status, what happened and where to go instead. Never indexed.
 */
export function renderErrorPage(props: ErrorPageProps): string {
  return `<!doctype html>${renderToString(<ErrorPage {...props} />)}`;
}

function ErrorPage(props: ErrorPageProps) {
  const { site, theme } = props;
  const status = Number.isInteger(props.status) && props.status >= 100 && props.status <= 599 ? props.status : 500;
  const title = site?.title ? `${props.title} – ${site.title}` : props.title;
  return (
    <html lang={safeLang(props.lang) ?? 'en'} {...htmlThemeAttributes(theme)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="robots" content="noindex" />
        <meta name="color-scheme" content={colorSchemeOf(theme)} />
        <Favicons site={site} />
        <HeadAssets assets={props.assets} theme={theme} />
      </head>
      <body class="error-body">
        <a class="skip-link" href="#content">
          {LABELS.skip}
        </a>
        {site && (
          <header class="site-header">
            <div class="header-bar">
              <Brand site={site} />
              <ThemeToggle theme={theme} />
            </div>
          </header>
        )}
        <main id="content" class="main error-page" tabindex={-1}>
          <p class="error-status">{status}</p>
          <h1 class="error-title">{props.title}</h1>
          <p class="error-message">{props.message}</p>
          {props.link && (
            <p class="error-link">
              <Link link={props.link} />
            </p>
          )}
        </main>
        <div id="reader-live" class="visually-hidden" role="status" aria-live="polite" />
      </body>
    </html>
  );
}
