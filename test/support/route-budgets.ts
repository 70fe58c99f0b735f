/**
 * The statement budget of every GET route (and of reads sent with a body, `POST`), authentication included: a get route costs the token
 * lookup, one access statement and one read (≤ 3); a list route the token, access, page and count
 * (≤ 4) — whatever the page length or the relations its REST shape needs. Asserted per route by
 * test/platform/sql-count.test.ts (for an admin, a reader and a guest); `npm run bench` prints this table.
 */
export const ROUTE_BUDGETS: Record<string, number> = {
  'GET /v1/user': 1,
  // A user by ID: token, the user's memberships in the caller's organizations (the user joined), then
  // those organizations and the caller's memberships there, one batch each.
  'GET /v1/users/{u}': 4,
  'GET /v1/user/invitations': 3,
  'GET /v1/orgs': 4,
  'GET /v1/orgs/{o}': 3,
  'GET /v1/email-domains/{domain}/orgs': 4,
  'GET /v1/orgs/{o}/members': 4,
  'GET /v1/orgs/{o}/members/{u}': 3,
  'GET /v1/orgs/{o}/members/{u}/teams': 4,
  'GET /v1/orgs/{o}/members/{u}/spaces': 4,
  'GET /v1/orgs/{o}/teams': 4,
  'GET /v1/orgs/{o}/teams/{t}': 3,
  'GET /v1/orgs/{o}/teams/{t}/members': 4,
  'GET /v1/orgs/{o}/collections': 4,
  'GET /v1/collections/{c}': 3,
  'GET /v1/collections/{c}/spaces': 4,
  // Who can access a collection: as for a space (the viewer's collection grants come with the access statement).
  'GET /v1/collections/{c}/permissions/users': 4,
  'GET /v1/collections/{c}/permissions/teams': 4,
  'GET /v1/collections/{c}/permissions/aggregate': 4,
  'GET /v1/orgs/{o}/spaces': 4,
  'GET /v1/spaces/{s}': 3,
  'GET /v1/spaces/{s}/links': 3,
  // Who can access a space: token, access, the page (with users, teams and their grants joined), the count.
  'GET /v1/spaces/{s}/permissions/users': 4,
  'GET /v1/spaces/{s}/permissions/teams': 4,
  'GET /v1/spaces/{s}/permissions/aggregate': 4,
  'GET /v1/spaces/{s}/content': 3,
  'GET /v1/spaces/{s}/content/pages': 3,
  'GET /v1/spaces/{s}/content/page/{pg}': 3,
  'GET /v1/spaces/{s}/content/files': 4,
  'GET /v1/spaces/{s}/content/files/{fl}': 3,
  'GET /v1/spaces/{s}/content/page/{pg}/links': 3,
  'GET /v1/spaces/{s}/content/files/{fl}/backlinks': 3,
  // A page's alternates: token, access, the revision's tree (unless cached), the sites' other variants,
  // their spaces' revisions, and those revisions' trees (unless cached) — whatever the number of variants.
  'GET /v1/spaces/{s}/content/page/{pg}/meta-links': 6,
  'GET /v1/spaces/{s}/revisions/{rv}/page/{pg}/meta-links': 6,
  // An application URL: token, access, the read (a page by path: the revision's tree, unless cached).
  'GET /v1/urls/content?url={spaceUrl}': 3,
  // A revision by ID: token, access, the revision (read whole for the revision and its tree: the cache
  // then holds it); a page or a file by ID reads the revision's row (unless the cache holds it), then it.
  'GET /v1/spaces/{s}/revisions/{rv}': 3,
  'GET /v1/spaces/{s}/revisions/{rv}/pages': 3,
  'GET /v1/spaces/{s}/revisions/{rv}/page/{pg}': 4,
  'GET /v1/spaces/{s}/revisions/{rv}/page/{pg}/document': 4,
  'GET /v1/spaces/{s}/revisions/{rv}/files': 4,
  'GET /v1/spaces/{s}/revisions/{rv}/files/{fl}': 4,
  'GET /v1/spaces/{s}/change-requests': 4,
  // Across the organization: token, access (membership, collection tree), the page (the readable spaces
  // joined in its filter, each change request's relations joined) and its count.
  'GET /v1/orgs/{o}/change-requests': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}': 3,
  // A change request's content: the change request's row (its revision) is one more read.
  'GET /v1/spaces/{s}/change-requests/{cr}/content': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/pages': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/page/{pg}': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/files': 5,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/files/{fl}': 4,
  // The PDF route answers a URL: the change request's row, and no content read (unless `page` is checked).
  'GET /v1/spaces/{s}/change-requests/{cr}/pdf': 3,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/page/{pg}/links': 4,
  // A change request's page by path, and its alternates: as the revision's, after the change request's row.
  'GET /v1/spaces/{s}/change-requests/{cr}/content/path/budget': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/page/{pg}/meta-links': 6,
  'GET /v1/spaces/{s}/change-requests/{cr}/content/files/{fl}/backlinks': 4,
  // Lists of a change request (review requests, reviews, comments): token, access, and the change request
  // read with its page of rows and their count (one statement: 404 when there is none). A row's users,
  // a review's change request and comment, a comment's reactions come with it (joins); a comment's
  // repliers and target page (SQL Prisma cannot say: a grouping, the content tree) in one more
  // statement for the whole page.
  'GET /v1/spaces/{s}/change-requests/{cr}/requested-reviewers': 3,
  'GET /v1/spaces/{s}/change-requests/{cr}/reviews': 4,
  // One review, one comment: token, access, the change request, the row (joins), repliers and target page.
  'GET /v1/spaces/{s}/change-requests/{cr}/reviews/{rw}': 5,
  'GET /v1/spaces/{s}/change-requests/{cr}/comments': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/comments/{cm}': 5,
  // Replies: token, access, the change request, and the comment read with its page of replies (reactions
  // joined) and their count (one statement: 404 when there is none).
  'GET /v1/spaces/{s}/change-requests/{cr}/comments/{cm}/replies': 4,
  'GET /v1/spaces/{s}/change-requests/{cr}/comments/{cm}/replies/{rp}': 5,
  // Comments on the space itself: the space read with its page of comments and their count.
  'GET /v1/spaces/{s}/comments': 4,
  'GET /v1/spaces/{s}/comments/{scm}': 4,
  // Replies: token, access, the comment read with its page of replies and their count.
  'GET /v1/spaces/{s}/comments/{scm}/replies': 3,
  'GET /v1/spaces/{s}/comments/{scm}/replies/{srp}': 4,
  // Commenters: token, access, the page of members (their users and counts joined), its count.
  'GET /v1/spaces/{s}/commenters': 4,
  // A change request's: its row is one more read.
  'GET /v1/spaces/{s}/change-requests/{cr}/commenters': 5,
  'GET /v1/spaces/{s}/custom-fields': 3,
  'GET /v1/orgs/{o}/custom-fields': 4,
  'GET /v1/orgs/{o}/custom-fields/{f}': 3,
  'GET /v1/orgs/{o}/link-invites': 4,
  'GET /v1/orgs/{o}/link-invites/{i}': 3,
  'GET /v1/orgs/{o}/saml': 4,
  'GET /v1/orgs/{o}/saml/{p}': 3,
  'GET /v1/orgs/{o}/sso': 3,
  // Sites: token, access (the membership with the organization, and the site, in parallel), the read.
  'GET /v1/orgs/{o}/sites': 4,
  'GET /v1/orgs/{o}/sites/{st}': 3,
  // Sections come with their site spaces and each space in the page's statement (joins); the spaces'
  // `permissions` need the viewer's grants on them: one more statement for the whole page.
  'GET /v1/orgs/{o}/sites/{st}/sections': 6,
  'GET /v1/orgs/{o}/sites/{st}/section-groups': 6,
  // Site spaces, as sections: the page with each space (joins), its count, and the spaces' grants.
  'GET /v1/orgs/{o}/sites/{st}/site-spaces': 6,
  'GET /v1/orgs/{o}/sites/{st}/share-links': 5,
  'GET /v1/orgs/{o}/sites/{st}/adaptive-schema': 3,
  // Who can access a site: token, access (the site with the caller's grants, and its organization with the
  // caller's membership: one statement), the page (grants with their users or teams; members with their
  // user and grants: joins), its count.
  'GET /v1/orgs/{o}/sites/{st}/permissions/users': 4,
  'GET /v1/orgs/{o}/sites/{st}/permissions/teams': 4,
  'GET /v1/orgs/{o}/sites/{st}/permissions/aggregate': 4,
  // The site and its sections (with site spaces and spaces), in two statements, the grants, and the site
  // spaces whose customization overrides the site's (one statement, however many).
  'GET /v1/orgs/{o}/sites/{st}/published': 7,
  // The structure: token, access (the membership, and the site, in parallel), the top-level sections and
  // the groups with what their selection needs (joins; in parallel), and the spaces' grants.
  'GET /v1/orgs/{o}/sites/{st}/structure': 6,
  // A site space's customization: the site space rides in the site's statement.
  'GET /v1/orgs/{o}/sites/{st}/site-spaces/{ss}/customization': 3,
  // Redirects: token, access (the membership, and the site, in parallel), the page, its count; by source:
  // the site is read with its sections, site spaces and the rule, and a page destination's path is one more.
  'GET /v1/orgs/{o}/sites/{st}/redirects': 5,
  'GET /v1/orgs/{o}/sites/{st}/redirect?source=/budget': 4,
  // Search: token, access, the ranked page of results, their sections with excerpts, their ancestors
  // (test/search/search.test.ts asserts it with results; here the budget space has none indexed).
  'GET /v1/spaces/{s}/search?query=budget': 5,
  // … and the spaces the caller can read.
  'GET /v1/orgs/{o}/search?query=budget': 6,
  // Site search, a read with a body (`{ "query": "budget" }`): token, access (the membership, and the
  // site with its sections, site spaces and their spaces, in parallel), the ranked page, sections,
  // ancestors; a reader with the site's apiToken costs 4 (no token lookup, no membership).
  'POST /v1/orgs/{o}/sites/{st}/search': 6,
};
