/**
 * Validate our `/v1` REST responses against GitBook's published OpenAPI document
 * (node_modules/@gitbook/api/spec/openapi.json, OpenAPI 3.1 => JSON Schema 2020-12).
 *
 * Usage (vitest):
 *   expect(validateGitBookResponse('getOrganizationById', res.status, await res.json())).toEqual([]);
 *   expect(validateGitBookResponse('getOrganizationById', 200, body, { ignoreMissing: ['plan', 'Organization.billing'] })).toEqual([]);
 *
 * Rules:
 *  - Present properties are checked strictly (types, enums, formats, lengths, patterns, and
 *    `additionalProperties: false` where GitBook declares it).
 *  - Missing required properties fail, unless tolerated by `ignoreMissing`:
 *      'name'             -> tolerated wherever a schema requires `name` (any depth, any schema);
 *      'Schema.name'      -> tolerated only inside components/schemas/Schema (e.g. 'Organization.plan');
 *      '*'                -> all `required` constraints dropped.
 *  - Documented statuses without content (204/205/202...) require an empty body
 *    (undefined, null or '').
 *  - An error status (>= 400) that the operation does not document is validated against
 *    GitBook's generic error envelope `{ error: { code: <status>, message: string } }`
 *    (components/responses/*Error). An undocumented 1xx-3xx status is reported as an error.
 *  - Discriminated `oneOf`s use Ajv's `discriminator` support where Ajv accepts the shape
 *    (no `mapping`, tag required + const/enum in every branch); other discriminators are
 *    dropped and the plain `oneOf` is kept. If an operation's schema still fails to compile,
 *    or a body matches several `oneOf` branches (overlapping OpenAPI unions), it is
 *    re-validated with every `oneOf` turned into `anyOf`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface GitBookValidateOptions {
  /** Property names whose absence is tolerated even though GitBook marks them required. */
  ignoreMissing?: string[];
  /** Also tolerate extra properties where GitBook declares `additionalProperties: false`. */
  allowAdditionalProperties?: boolean;
}

export interface GitBookOperationInfo {
  /** Upper-case HTTP method, e.g. 'GET'. */
  method: string;
  /** Path as written in the spec, relative to the server URL `{host}/v1`, e.g. '/orgs/{organizationId}'. */
  path: string;
  /** Documented response status keys, e.g. ['200', '404']. */
  statuses: string[];
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Mode = 'discriminator' | 'anyOf';

const HERE = import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));
const PROJECT_ROOT = path.resolve(HERE, '..', '..');
const SPEC_PATH = path.join(PROJECT_ROOT, 'node_modules', '@gitbook', 'api', 'spec', 'openapi.json');
const DOC_ID = 'https://gitbook-openapi.local/openapi.json';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Keywords that don't change validation: a `$ref` carrying only these is a "pure" ref. */
const ANNOTATIONS = new Set([
  'description', 'title', 'deprecated', 'example', 'examples', 'default', 'readOnly', 'writeOnly', '$comment',
]);

// ---------------------------------------------------------------------------------------------
// Spec loading / lookup
// ---------------------------------------------------------------------------------------------

let specCache: Json | undefined;
let opIndex: Map<string, { method: string; path: string; op: Json }> | undefined;

function spec(): Json {
  specCache ??= JSON.parse(fs.readFileSync(SPEC_PATH, 'utf8'));
  return specCache;
}

function findOperation(operationId: string) {
  if (!opIndex) {
    opIndex = new Map();
    for (const [p, item] of Object.entries<Json>(spec().paths ?? {})) {
      for (const m of HTTP_METHODS) {
        const op = item?.[m];
        if (op?.operationId) opIndex.set(op.operationId, { method: m.toUpperCase(), path: p, op });
      }
    }
  }
  const found = opIndex.get(operationId);
  if (!found) throw new Error(`GitBook OpenAPI: unknown operationId "${operationId}"`);
  return found;
}

/** Resolve a local JSON pointer ref ('#/components/...') against `doc`. */
function resolvePointer(doc: Json, ref: string): Json {
  if (!ref.startsWith('#')) throw new Error(`GitBook OpenAPI: unsupported non-local $ref "${ref}"`);
  let cur = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur?.[key];
    if (cur === undefined) throw new Error(`GitBook OpenAPI: cannot resolve $ref "${ref}"`);
  }
  return cur;
}

/** Follow `$ref` chains of Response objects (siblings such as `description` are kept). */
function derefResponse(resp: Json): Json {
  let cur = resp;
  for (let i = 0; cur?.$ref && i < 10; i++) {
    const { $ref, ...rest } = cur;
    cur = { ...resolvePointer(spec(), $ref), ...rest };
  }
  return cur;
}

export function gitbookOperation(operationId: string): GitBookOperationInfo {
  const { method, path: p, op } = findOperation(operationId);
  return { method, path: p, statuses: Object.keys(op.responses ?? {}) };
}

// ---------------------------------------------------------------------------------------------
// Schema transformation (per variant)
// ---------------------------------------------------------------------------------------------

interface Variant {
  mode: Mode;
  ignoreAll: boolean;
  ignoreBare: Set<string>;
  ignoreScoped: Set<string>; // 'Schema.prop'
  allowAdditional: boolean;
}

const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * Deep-clone a schema applying: nullable -> type union, required filtering (ignoreMissing),
 * optional additionalProperties:false removal, oneOf->anyOf + discriminator removal in 'anyOf' mode,
 * and (optionally) rewriting local refs to the registered document id.
 */
function transform(node: Json, v: Variant, scope: string | null, absRefs: boolean): Json {
  if (Array.isArray(node)) return node.map((n) => transform(n, v, scope, absRefs));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, val] of Object.entries<Json>(node)) {
    if (k === 'enum' || k === 'const' || k === 'example' || k === 'examples' || k === 'default' || k.startsWith('x-')) {
      out[k] = val; // data, not schema: copy verbatim
    } else if (SCHEMA_MAP_KEYS.has(k) && val && typeof val === 'object' && !Array.isArray(val)) {
      out[k] = Object.fromEntries(Object.entries<Json>(val).map(([pk, pv]) => [pk, transform(pv, v, scope, absRefs)]));
    } else if (k === '$ref' && typeof val === 'string') {
      out[k] = absRefs && val.startsWith('#/') ? DOC_ID + val : val;
    } else if (k === 'required' && Array.isArray(val)) {
      const kept = v.ignoreAll
        ? []
        : val.filter((r: string) => !v.ignoreBare.has(r) && !(scope && v.ignoreScoped.has(`${scope}.${r}`)));
      if (kept.length) out[k] = kept;
    } else if (k === 'additionalProperties' && val === false && v.allowAdditional) {
      // dropped
    } else if (k === 'discriminator' && v.mode === 'anyOf') {
      // dropped
    } else if (k === 'oneOf' && v.mode === 'anyOf') {
      out.anyOf = transform(val, v, scope, absRefs);
    } else if (k === 'nullable') {
      // handled below (OpenAPI 3.0 style; the 3.1 document uses type arrays, kept for robustness)
    } else {
      out[k] = transform(val, v, scope, absRefs);
    }
  }
  if (node.nullable === true) return applyNullable(out);
  return out;
}

function applyNullable(s: Json): Json {
  if (typeof s.type === 'string') s.type = [s.type, 'null'];
  else if (Array.isArray(s.type)) s.type = s.type.includes('null') ? s.type : [...s.type, 'null'];
  else return { anyOf: [s, { type: 'null' }] };
  if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  return s;
}

/** Ajv's discriminator keyword only accepts specific shapes; drop it (keeping oneOf) elsewhere. */
function pruneDiscriminators(doc: Json): void {
  const isPureRef = (s: Json) => s && typeof s.$ref === 'string' && Object.keys(s).every((k) => k === '$ref' || ANNOTATIONS.has(k) || k.startsWith('x-'));
  const usable = (node: Json): boolean => {
    const d = node.discriminator;
    if (!d || typeof d.propertyName !== 'string' || d.mapping || !Array.isArray(node.oneOf)) return false;
    const tag = d.propertyName;
    const topRequired = Array.isArray(node.required) && node.required.includes(tag);
    const seen = new Set<string>();
    for (let br of node.oneOf) {
      if (isPureRef(br)) {
        try {
          br = resolvePointer(doc, br.$ref.startsWith(DOC_ID) ? br.$ref.slice(DOC_ID.length) : br.$ref);
        } catch {
          return false;
        }
      }
      const p = br?.properties?.[tag];
      if (!p || typeof p !== 'object') return false;
      if (!topRequired && !(Array.isArray(br.required) && br.required.includes(tag))) return false;
      const values = p.const !== undefined ? [p.const] : Array.isArray(p.enum) ? p.enum : null;
      if (!values) return false;
      for (const val of values) {
        if (typeof val !== 'string' || seen.has(val)) return false;
        seen.add(val);
      }
    }
    return true;
  };
  const walk = (n: Json) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== 'object') return;
    if (n.discriminator !== undefined && !usable(n)) delete n.discriminator;
    for (const [k, val] of Object.entries<Json>(n)) {
      if (k === 'enum' || k === 'const' || k === 'example' || k === 'examples' || k === 'default') continue;
      walk(val);
    }
  };
  walk(doc);
}

// ---------------------------------------------------------------------------------------------
// Ajv instances and compiled validators (cached)
// ---------------------------------------------------------------------------------------------

const ajvCache = new Map<string, { ajv: Ajv2020; doc: Json; variant: Variant }>();
const validatorCache = new Map<string, ValidateFunction | Error>();

function makeVariant(mode: Mode, opts: GitBookValidateOptions): { key: string; variant: Variant } {
  const names = [...new Set(opts.ignoreMissing ?? [])].sort();
  const variant: Variant = {
    mode,
    ignoreAll: names.includes('*'),
    ignoreBare: new Set(names.filter((n) => !n.includes('.'))),
    ignoreScoped: new Set(names.filter((n) => n.includes('.'))),
    allowAdditional: !!opts.allowAdditionalProperties,
  };
  return { key: JSON.stringify([mode, names, variant.allowAdditional]), variant };
}

function getAjv(key: string, variant: Variant) {
  let entry = ajvCache.get(key);
  if (!entry) {
    const src = spec().components ?? {};
    const schemas = Object.fromEntries(
      Object.entries<Json>(src.schemas ?? {}).map(([name, s]) => [name, transform(s, variant, name, false)]),
    );
    const responses = transform(src.responses ?? {}, variant, null, false);
    const doc = { $id: DOC_ID, components: { schemas, responses } };
    if (variant.mode === 'discriminator') pruneDiscriminators(doc);
    const ajv = new Ajv2020({
      strict: false, // OpenAPI annotations (example, x-*, discriminator in anyOf mode) are not JSON Schema keywords
      allErrors: true,
      validateSchema: false,
      discriminator: variant.mode === 'discriminator',
      validateFormats: true,
    });
    addFormats(ajv);
    // Non-standard formats used by GitBook's document: accept any string.
    for (const f of ['emoji', 'icon']) ajv.addFormat(f, true);
    for (const kw of ['example', 'x-internal', 'x-typescript', 'x-gitbook-mcp']) {
      if (!ajv.getKeyword(kw)) ajv.addKeyword(kw); // annotation-only keyword
    }
    ajv.addSchema(doc);
    entry = { ajv, doc, variant };
    ajvCache.set(key, entry);
  }
  return entry;
}

/** The raw (untransformed) response schema, `null` for "no body", or an Error for undocumented statuses. */
function rawResponseSchema(operationId: string, status: number): Json | null | Error {
  const { op } = findOperation(operationId);
  const responses = op.responses ?? {};
  let resp = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!resp) {
    if (status >= 400) return genericErrorSchema(status);
    return new Error(
      `status ${status} is not documented for ${operationId} (documented: ${Object.keys(responses).join(', ') || 'none'})`,
    );
  }
  resp = derefResponse(resp);
  const content = resp.content;
  if (!content || Object.keys(content).length === 0) return null;
  const key = content['application/json'] ? 'application/json' : Object.keys(content).find((c) => /json/i.test(c));
  if (!key) return new Error(`${operationId} ${status}: no JSON content documented (${Object.keys(content).join(', ')})`);
  return content[key].schema ?? {};
}

function genericErrorSchema(status: number): Json {
  for (const r of Object.values<Json>(spec().components?.responses ?? {})) {
    const s = r?.content?.['application/json']?.schema;
    const codes = s?.properties?.error?.properties?.code?.enum;
    if (Array.isArray(codes) && codes.includes(status)) return s;
  }
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer', enum: [status] }, message: { type: 'string' } },
      },
    },
  };
}

function getValidator(mode: Mode, operationId: string, status: number, opts: GitBookValidateOptions, raw: Json) {
  const { key, variant } = makeVariant(mode, opts);
  const vKey = `${key}|${operationId}|${status}`;
  let v = validatorCache.get(vKey);
  if (!v) {
    try {
      const { ajv } = getAjv(key, variant);
      const schema = transform(raw, variant, null, true);
      if (variant.mode === 'discriminator') pruneDiscriminators(schema);
      v = ajv.compile(schema);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    validatorCache.set(vKey, v);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/**
 * Validate a response body for `operationId` / `status` against GitBook's OpenAPI response schema.
 * Returns [] when valid, otherwise readable error strings ("<instancePath> <message> ...").
 * Throws only for an unknown operationId.
 */
export function validateGitBookResponse(
  operationId: string,
  status: number,
  body: unknown,
  opts: GitBookValidateOptions = {},
): string[] {
  const raw = rawResponseSchema(operationId, status);
  if (raw instanceof Error) return [raw.message];
  if (raw === null) {
    return body === undefined || body === null || body === ''
      ? []
      : [`(root) ${operationId} ${status} documents no response body, got ${preview(body)}`];
  }

  const strictV = getValidator('discriminator', operationId, status, opts, raw);
  if (!(strictV instanceof Error)) {
    if (strictV(body)) return [];
    const errors = strictV.errors ?? [];
    const ambiguous = errors.some((e) => e.keyword === 'oneOf' && Array.isArray(e.params?.passingSchemas));
    if (!ambiguous) return formatErrors(errors, body);
  }
  const looseV = getValidator('anyOf', operationId, status, opts, raw);
  if (looseV instanceof Error) {
    const why = strictV instanceof Error ? strictV.message : looseV.message;
    return [`(schema) cannot compile GitBook schema for ${operationId} ${status}: ${why}`];
  }
  return looseV(body) ? [] : formatErrors(looseV.errors ?? [], body);
}

function formatErrors(errors: ErrorObject[], body: unknown): string[] {
  const out = new Set<string>();
  for (const e of errors) {
    const where = e.instancePath || '(root)';
    let msg = `${where} ${e.message ?? e.keyword}`;
    const p: Json = e.params ?? {};
    if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) msg += `: ${p.allowedValues.map((x: unknown) => JSON.stringify(x)).join(', ')}`;
    if (e.keyword === 'additionalProperties' && p.additionalProperty) msg += `: '${p.additionalProperty}'`;
    if (['type', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum'].includes(e.keyword)) {
      msg += ` (got ${preview(valueAt(body, e.instancePath))})`;
    }
    out.add(msg);
  }
  return [...out];
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur: Json = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

function preview(v: unknown): string {
  if (v === undefined) return 'undefined';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
