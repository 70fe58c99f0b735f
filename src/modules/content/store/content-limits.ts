/**
 * The longest page body, in characters of markdown (about 100 printed pages: the largest pages of real
 * documentation sites are a tenth of it). A body is parsed into a document, its links and its search
 * sections when it is written, and laid out when it is exported; this bound keeps each of those well
 * under a second. A computed page (made from an OpenAPI spec) is cut at the same length.
 */
export const MAX_PAGE_MARKDOWN = 500_000;
