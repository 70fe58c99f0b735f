import type { Door } from './request-state.ts';

/**
 * Every refusal the edge answers — 400, 401, 403, 404, 405, 413, 414, 415, 429, 5xx — in the shape of the
 * request's door: a GraphQL result with `extensions.code` for the GraphQL door, the REST error body
 * `{ "error": { "code", "message" } }` for every other. (Errors inside an operation are GraphQL errors,
 * rendered by Yoga and by the REST door from the same `extensions`.) Requests Node's parser refuses
 * before any `Request` exists (431, 400) get `restErrorBody` written on the socket (client-errors.ts).
 */
const GRAPHQL_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export interface RestErrorBody {
  error: { code: number; message: string };
}

/**
 * The REST error body: what every door but GraphQL's answers a refusal with, and what client-errors.ts
 * writes on the socket for requests Node's parser refuses before a `Request` exists.
 */
export function restErrorBody(status: number, message: string): RestErrorBody {
  return { error: { code: status, message } };
}

/** Titles of the published-site door's bare error pages (the reader draws its own in the site's style). */
const HTML_TITLES: Record<number, string> = {
  400: 'Bad request',
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Request too large',
  414: 'Address too long',
  429: 'Too many requests: try again in a moment',
};

/**
 * `format` is the published-site door's: its pages get HTML, and what its scripts fetch (the reader's
 * search) asks for JSON — the error body, as every other door but GraphQL's answers it.
 */
export function refusal(door: Door, status: number, message: string, headers?: Record<string, string>, format: 'html' | 'json' = 'html'): Response {
  if (door === 'published-site' && format === 'html') {
    // A reader's browser gets a page, not JSON. Only fixed text of ours: the message (which may quote the
    // request) is left out, so nothing the client sent is echoed into HTML.
    const title = HTML_TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Request refused');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>Error ${status}</p></main></body></html>`;
    return new Response(html, { status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  if (door === 'graphql') {
    const code = GRAPHQL_CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
    return Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
  }
  return Response.json(restErrorBody(status, message), { status, headers });
}

/** The answer to an unexpected failure: nothing about it, in the door's shape. */
export function unexpectedFailure(door: Door): Response {
  return refusal(door, 500, door === 'graphql' ? 'Unexpected error.' : 'Internal server error');
}
