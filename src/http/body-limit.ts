import type { Plugin } from 'graphql-yoga';
import { BodyTooLargeError, checkDeclaredLength, readTextWithLimit } from '../lib/body.ts';
import { refusal } from './refusal.ts';
import { findRequestState, requestStateOf } from './request-state.ts';

/**
 * The longest request URL served (origin, path and query string): what common proxies accept. A longer
 * one is a 414 before anything reads its path or query (Node's HTTP server itself refuses request
 * lines over its 16 KiB header limit: see client-errors.ts).
 */
export const MAX_URL_LENGTH = 8192;

/**
 * No URL longer than MAX_URL_LENGTH is looked at (414). No request body is read past its route's limit
 * (the classification's `bodyLimit`: MAX_BODY_BYTES, or a route's own): a declared `Content-Length` over
 * it is answered 413 at once, before authentication; GraphQL bodies are read through a capped reader
 * before Yoga's own parser sees them (the REST door and HTTP routes read theirs with the same reader).
 */
export function useBodyLimit(): Plugin {
  return {
    onRequest({ request, serverContext, endResponse }) {
      const state = requestStateOf(serverContext);
      if (request.url.length > MAX_URL_LENGTH) return endResponse(refusal(state.door, 414, `The request URL is longer than ${MAX_URL_LENGTH} characters`));
      try {
        checkDeclaredLength(request, state.bodyLimit);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return endResponse(refusal(state.door, 413, error.message));
        throw error;
      }
    },
    onRequestParse({ request, requestParser, setRequestParser, serverContext }) {
      if (request.method === 'GET' || request.method === 'HEAD' || !requestParser) return;
      const limit = findRequestState(serverContext)?.bodyLimit;
      if (limit === undefined) return;
      setRequestParser(async (original) => {
        let text: string;
        try {
          text = await readTextWithLimit(original, limit);
        } catch (error) {
          if (error instanceof BodyTooLargeError) return refusal('graphql', 413, error.message);
          throw error;
        }
        // Yoga's parser for this content type, on the body we have read (and bounded).
        return requestParser(new Request(original.url, { method: original.method, headers: original.headers, body: text }));
      });
    },
  };
}
