import type { Plugin } from 'graphql-yoga';
import { BodyTooLargeError, checkDeclaredLength, readTextWithLimit } from '../lib/body.ts';
import { errorResponse } from '../rest/errors.ts';

export function payloadTooLarge(error: BodyTooLargeError, graphql: boolean): Response {
  if (!graphql) return errorResponse(413, error.message);
  return Response.json({ errors: [{ message: error.message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }, { status: 413 });
}

/**
 * No request body is read past its route's limit (`maxBytes` for the method and path: MAX_BODY_BYTES,
 * or a route's own): a declared `Content-Length` over it is answered 413 at once, before
 * authentication; GraphQL bodies are read through a capped reader before Yoga's own parser sees them
 * (REST and SAML read theirs with the same reader).
 */
export function useBodyLimit(options: { maxBytes: (method: string, pathname: string) => number; graphqlPath: string }): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
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
