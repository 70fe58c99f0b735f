import { BodyTooLargeError, nestingDepth, readTextWithLimit } from '../lib/body.ts';
import { containsNul } from '../lib/text.ts';

/** Why a request cannot be served before it reaches SOFA: its HTTP status and a message naming the problem. */
export class RestInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}


function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** 400 when the path or the query string holds a NUL, percent-encoded or not. */
export function checkUrlText(url: URL): void {
  if (containsNul(decodeSafely(url.pathname + url.search))) throw new RestInputError(400, 'Text must not contain NUL characters');
}

/**
 * The JSON object a request sends, read once and strictly: at most `maxBytes` (413 beyond, without
 * reading the rest), no NUL, well-formed JSON, an object (an empty body is `{}`), nesting at most
 * `maxDepth` levels. SOFA would read the body itself, whole and unbounded; we give it none (see
 * plugin.ts) and make the variables from this object instead.
 */
export async function readJsonObjectBody(request: Request, limits: { maxBytes: number; maxDepth: number }): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = await readTextWithLimit(request, limits.maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new RestInputError(413, error.message);
    throw error;
  }
  if (containsNul(raw)) throw new RestInputError(400, 'Text must not contain NUL characters');
  if (!raw.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new RestInputError(400, 'Malformed JSON in the request body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RestInputError(400, 'The request body must be a JSON object');
  if (nestingDepth(body, limits.maxDepth) > limits.maxDepth) {
    throw new RestInputError(400, `The request body nests more than ${limits.maxDepth} levels`);
  }
  return body as Record<string, unknown>;
}

/**
 * The request as SOFA gets it: method, path and headers only. SOFA would read the body and the query
 * string itself and coerce their values its own lossy way (see variables.ts); it routes, and our reading
 * of the request provides the values.
 */
export function requestForSofa(request: Request, restOfPath?: string): Request {
  const url = new URL(request.url);
  url.search = '';
  // A parameter taking the rest of the path (`{pagePath}`): one segment for SOFA's router, which
  // decodes it back into the path it was.
  if (restOfPath) url.pathname = `${url.pathname.slice(0, url.pathname.length - restOfPath.length)}${restOfPath.replaceAll('/', '%2F')}`;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('content-type');
  return new Request(url, { method: request.method, headers });
}
