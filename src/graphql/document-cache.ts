import { LRUCache } from 'lru-cache';
import type { DocumentNode } from 'graphql';

/**
 * Yoga caches parsed documents (and parse errors) by their full text, 1,024 entries each by default,
 * whatever their size: a client sending large distinct documents (long comments and string literals are
 * not tokens) could make it keep gigabytes. These caches keep as many entries, within a byte budget.
 */
export function boundedParserCache(maxBytes: number) {
  const options = {
    max: 1024,
    maxSize: maxBytes,
    // A document's text (UTF-16) stands for its size; its AST is proportional to it.
    sizeCalculation: (_value: unknown, key: string) => Math.max(1, key.length * 2),
    ttl: 60 * 60 * 1000,
  };
  return {
    documentCache: new LRUCache<string, DocumentNode>(options),
    errorCache: new LRUCache<string, {}>(options),
    validationCache: true,
  };
}
