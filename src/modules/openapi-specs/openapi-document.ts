import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { nestingDepth } from '../../lib/body.ts';

// swagger-parser's two validators, used on their own (see readOpenApiDocument for why).
const require = createRequire(import.meta.url);
const validateAgainstSchema = require('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void;
const validateSwaggerRules = require('@apidevtools/swagger-parser/lib/validators/spec.js') as (api: unknown) => void;

/**
 * Reading an OpenAPI document: JSON or YAML text, validated as OpenAPI 3.0, 3.1 or Swagger 2.0 by
 * @apidevtools/swagger-parser's validators (the schema of its version, then for Swagger 2.0 the rules the
 * schema cannot say). External `$ref`s are not followed: a document names no other URL the server would
 * fetch.
 */
export interface OpenApiDocument {
  /** The document as parsed (not dereferenced), and its JSON. */
  document: Record<string, any>;
  json: string;
  hash: string;
  /** `info.version`. */
  version: string;
}

export class OpenApiParseError extends Error {}

export async function readOpenApiDocument(text: string): Promise<OpenApiDocument> {
  let parsed: unknown;
  try {
    parsed = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new OpenApiParseError(`Not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new OpenApiParseError('Not an OpenAPI document: the text is not an object');
  // YAML aliases share one value in many places (100 aliases of a 4.5 MB anchor made 440 MB of JSON):
  // the size as JSON is bounded first, walking each shared value once; then the nesting, since the
  // walkers below (cloning, validation) recurse.
  let expanded: number;
  try {
    expanded = jsonLength(parsed, MAX_DOCUMENT_JSON);
  } catch {
    throw new OpenApiParseError(`Not an OpenAPI document: nested more than ${MAX_DEPTH} levels`);
  }
  if (expanded > MAX_DOCUMENT_JSON) {
    throw new OpenApiParseError(`Not an OpenAPI document we can keep: over ${MAX_DOCUMENT_JSON / 1024 / 1024} MB as JSON (YAML aliases expanded)`);
  }
  if (nestingDepth(parsed, MAX_DEPTH) > MAX_DEPTH) throw new OpenApiParseError(`Not an OpenAPI document: nested more than ${MAX_DEPTH} levels`);
  const document = parsed as Record<string, any>;
  if (typeof document.openapi !== 'string' && document.swagger !== '2.0') {
    throw new OpenApiParseError('Not an OpenAPI document: no "openapi" (3.0, 3.1) or "swagger: 2.0" field');
  }
  try {
    // The document is checked against its version's schema as written, `$ref`s and all (the schemas
    // accept Reference Objects): swagger-parser's own `validate` checks the dereferenced document, whose
    // shared subtrees Ajv walks as a tree — each `$ref` used twice doubles the walk, so 22 nested pairs
    // held the event loop 16 s and 30 would hold it for hours. Then the references are resolved (each
    // must point into the document; shared, not copied) and Swagger 2.0's own rules are checked on the
    // result, where that result is small enough to walk.
    checkUniqueListSizes(document);
    validateAgainstSchema(structuredClone(document));
    const dereferenced = await SwaggerParser.dereference(structuredClone(document) as any, { resolve: { external: false } } as any);
    if (document.swagger === '2.0' && expandedSize(dereferenced, MAX_EXPANDED_NODES) <= MAX_EXPANDED_NODES) validateSwaggerRules(dereferenced);
  } catch (error) {
    throw new OpenApiParseError(`Invalid OpenAPI document: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
  }
  const json = JSON.stringify(document);
  return { document, json, hash: createHash('sha256').update(json).digest('hex'), version: String(document.info?.version ?? '') };
}

/** The largest document kept, as JSON (twice the largest text a spec may have). */
const MAX_DOCUMENT_JSON = 10 * 1024 * 1024;

/**
 * About how long `value` is as JSON, counted up to `cap` (a value reached twice is counted twice, as
 * JSON.stringify writes it; each object is walked once).
 */
function jsonLength(value: unknown, cap: number): number {
  const lengths = new Map<object, number>();
  const visiting = new Set<object>();
  const length = (node: unknown): number => {
    if (typeof node === 'string') return node.length + 2;
    if (node === null || typeof node !== 'object') return String(node).length;
    const known = lengths.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return cap + 1;
    visiting.add(node);
    let total = 2;
    for (const [key, child] of Object.entries(node)) {
      total = Math.min(cap + 1, total + key.length + 4 + length(child));
      if (total > cap) break;
    }
    visiting.delete(node);
    lengths.set(node, total);
    return total;
  };
  return length(value);
}

/** The deepest nesting of a document read (real ones stay under 30). */
const MAX_DEPTH = 200;

/** The most nodes a dereferenced Swagger 2.0 document may expand to for its extra rules to be checked. */
const MAX_EXPANDED_NODES = 1_000_000;

/**
 * How many nodes `value` has when its shared subtrees are counted as often as they are reached (what a
 * tree walk visits), counted up to `cap`: memoized per object, so it costs the size of the graph.
 */
function expandedSize(value: unknown, cap: number): number {
  const sizes = new Map<object, number>();
  const visiting = new Set<object>();
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return 1;
    visiting.add(node);
    let total = 1;
    for (const child of Object.values(node)) {
      total = Math.min(cap + 1, total + size(child));
      if (total > cap) break;
    }
    visiting.delete(node);
    sizes.set(node, total);
    return total;
  };
  return size(value);
}

/**
 * The lists the OpenAPI schemas declare `uniqueItems` on (tags, parameters, security requirements,
 * media types, schemes) are checked by Ajv comparing every pair of items: 40,000 tags took 32 s. The sum
 * of their squared lengths is bounded first (a list of 3,000 items passes alone; real documents have
 * tens), so that check stays well under a second.
 */
const MAX_PAIR_COMPARISONS = 10_000_000;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function checkUniqueListSizes(document: Record<string, any>): void {
  let pairs = 0;
  const count = (list: unknown) => {
    if (Array.isArray(list)) pairs += list.length * list.length;
  };
  for (const key of ['tags', 'security', 'consumes', 'produces', 'schemes']) count(document[key]);
  for (const item of Object.values<any>(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    count(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      for (const key of ['tags', 'parameters', 'security', 'consumes', 'produces', 'schemes']) count(operation[key]);
    }
    if (pairs > MAX_PAIR_COMPARISONS) break;
  }
  if (pairs > MAX_PAIR_COMPARISONS) {
    throw new Error('its lists of tags, parameters or security requirements are too long to check for duplicates');
  }
}

const isObject = (value: unknown): value is Record<string, any> => value !== null && typeof value === 'object' && !Array.isArray(value);
