import type { Plugin } from 'graphql-yoga';
import { BodyTooLargeError, checkDeclaredLength, readTextWithLimit } from '../lib/body.ts';
import { errorResponse } from '../rest/errors.ts';

/**
 * The longest request URL served (origin, path and query string): what common proxies accept. A longer
 * one is a 414 before anything reads its path or query (Node's HTTP server itself refuses request
 * lines over its 16 KiB header limit with a bare 431).
 */
export const MAX_URL_LENGTH = 8192;

function uriTooLong(graphql: boolean): Response {
  const message = `The request URL is longer than ${MAX_URL_LENGTH} characters`;
  if (!graphql) return errorResponse(414, message);
  return Response.json({ errors: [{ message, extensions: { code: 'URI_TOO_LONG' } }] }, { status: 414 });
}

export function payloadTooLarge(error: BodyTooLargeError, graphql: boolean): Response {
  if (!graphql) return errorResponse(413, error.message);
  return Response.json({ errors: [{ message: error.message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }, { status: 413 });
}

/**
 * No URL longer than MAX_URL_LENGTH is looked at (414). No request body is read past its route's limit (`maxBytes` for the method and path: MAX_BODY_BYTES,
 * or a route's own): a declared `Content-Length` over it is answered 413 at once, before
 * authentication; GraphQL bodies are read through a capped reader before Yoga's own parser sees them
 * (REST and SAML read theirs with the same reader).
 */
export function useBodyLimit(options: { maxBytes: (method: string, pathname: string) => number; graphqlPath: string }): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (request.url.length > MAX_URL_LENGTH) return endResponse(uriTooLong(url.pathname === options.graphqlPath));
      try {
        checkDeclaredLength(request, options.maxBytes(request.method, url.pathname));
      } catch (error) {
        if (error instanceof BodyTooLargeError) return endResponse(payloadTooLarge(error, url.pathname === options.graphqlPath));
        throw error;
      }
    },
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (request.method === 'GET' || request.method === 'HEAD' || !requestParser) return;
      setRequestParser(async (original) => {
        let text: string;
        try {
          text = await readTextWithLimit(original, options.maxBytes(original.method, new URL(original.url).pathname));
        } catch (error) {
          if (error instanceof BodyTooLargeError) return payloadTooLarge(error, true);
          throw error;
        }
        // Yoga's parser for this content type, on the body we have read (and bounded).
        return requestParser(new Request(original.url, { method: original.method, headers: original.headers, body: text }));
      });
    },
  };
}
