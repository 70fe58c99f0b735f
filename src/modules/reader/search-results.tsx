import type { SearchAnswer } from './layout/site-page-props.ts';

/** The site's search results as a page (a search submitted without JavaScript): pages, their sections, excerpts with the matches marked. */
export function SearchResults({ answer }: { answer: SearchAnswer }) {
  if (!answer.query) return <p>Type words to search this site.</p>;
  if (!answer.pages.length) return <p>No results for “{answer.query}”.</p>;
  return (
    <ol class="search-results">
      {answer.pages.map((page) => (
        <li>
          <a href={page.href}>{page.title}</a>
          {page.breadcrumbs.length > 0 && <p class="search-breadcrumbs">{page.breadcrumbs.join(' › ')}</p>}
          {page.sections.length > 0 && (
            <ul>
              {page.sections.map((section) => (
                <li>
                  <a href={section.href}>{section.title || page.title}</a>
                  <p>{section.excerpt.map((run) => (run.match ? <mark>{run.text}</mark> : run.text))}</p>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
