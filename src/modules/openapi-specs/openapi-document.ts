import { createHash } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';

/**
 * Reading an OpenAPI document: JSON or YAML text, validated as OpenAPI 3.0, 3.1 or Swagger 2.0 by
 * @apidevtools/swagger-parser (the schema of its version, then the rules the schema cannot say).
 * External `$ref`s are not followed: a document names no other URL the server would fetch.
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
  const document = parsed as Record<string, any>;
  if (typeof document.openapi !== 'string' && document.swagger !== '2.0') {
    throw new OpenApiParseError('Not an OpenAPI document: no "openapi" (3.0, 3.1) or "swagger: 2.0" field');
  }
  try {
    // The validator dereferences what it is given: it gets a copy.
    await SwaggerParser.validate(structuredClone(document) as any, { resolve: { external: false } } as any);
  } catch (error) {
    throw new OpenApiParseError(`Invalid OpenAPI document: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
  }
  const json = JSON.stringify(document);
  return { document, json, hash: createHash('sha256').update(json).digest('hex'), version: String(document.info?.version ?? '') };
}
