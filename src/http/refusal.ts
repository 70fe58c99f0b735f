import type { Door } from './request-state.ts';

/**
 * Every refusal the edge answers — 400, 401, 403, 404, 405, 413, 414, 415, 429, 5xx — in the shape of the
 * request's door: a GraphQL result with `extensions.code` for the GraphQL door, the REST error body
 * `{ "error": { "code", "message" } }` for every other. (Errors inside an operation are GraphQL errors,
 * rendered by Yoga and by the REST door from the same `extensions`.)
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

export function refusal(door: Door, status: number, message: string, headers?: Record<string, string>): Response {
  if (door === 'graphql') {
    const code = GRAPHQL_CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
    return Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
  }
  const body: RestErrorBody = { error: { code: status, message } };
  return Response.json(body, { status, headers });
}

/** The answer to an unexpected failure: nothing about it, in the door's shape. */
export function unexpectedFailure(door: Door): Response {
  return refusal(door, 500, door === 'graphql' ? 'Unexpected error.' : 'Internal server error');
}
