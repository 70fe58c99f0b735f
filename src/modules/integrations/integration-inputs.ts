import { z } from 'zod';
import { BadRequestError } from '../../core/errors.ts';
import { detectImage } from '../content/index.ts';

/**
 * What publishing an integration takes (GitBook's `PublishIntegration`), checked whole before anything
 * is written: every limit of the description, GitBook's enums, and every scope and category GitBook's
 * client and CLI send (the older scope names of CLI 0.25.0, and the `gitsync` category, included).
 */
export const NAME_PATTERN = /^[a-zA-Z0-9-_.]+$/;

export const INTEGRATION_SCOPES = [
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync', 'page:feedback:read',
  'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:auth', 'site:visitor:claims',
  'site:adaptive:read', 'site:adaptive:write', 'conversations:ingest', 'openapi:read', 'openapi:write',
  // Earlier names, still sent by GitBook's CLI 0.25.0.
  'space:views:read', 'space:script:inject', 'space:script:cookies', 'space:visitor:auth',
] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other', 'gitsync'] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;

/** Largest decoded icon or preview image. */
export const MAX_IMAGE_BYTES = 1024 * 1024;
/** The base64 text of the largest image, padding included. */
export const MAX_BASE64_IMAGE_LENGTH = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
/** Largest script (a bundled integration is far smaller). */
export const MAX_SCRIPT_BYTES = 5 * 1024 * 1024;

export const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64 = z.string().regex(BASE64, 'base64');
const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const block = z.looseObject({
  id: z.string().min(1).max(100),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().max(2048).optional(),
  urlUnfurl: z.array(z.string().min(1).max(2048)).max(50).optional(),
  markdown: z.object({ codeblock: z.string().max(100), body: z.string().max(10_000) }).optional(),
});
const contentSource = z.looseObject({
  id: z.string().min(1).max(100),
  title: z.string().min(2).max(40),
  description: z.string().max(150).optional(),
  icon: z.string().max(2048).optional(),
  configuration: z.object({ componentId: z.string().min(1).max(100) }),
});
/** The largest configuration schema, as JSON text (GitBook's are a few hundred bytes). */
export const MAX_CONFIGURATION_JSON = 64 * 1024;
const configuration = z
  .union([
    z.object({ componentId: z.string().min(1).max(100) }),
    z.looseObject({
      properties: z.record(z.string().min(1).max(100), z.unknown()).refine((p) => Object.keys(p).length <= 100, 'at most 100 properties'),
      required: z.array(z.string().max(100)).max(100).optional(),
    }),
  ])
  .refine((c) => JSON.stringify(c).length <= MAX_CONFIGURATION_JSON, `at most ${MAX_CONFIGURATION_JSON} characters as JSON`);

export const publishBody = z.object({
  title: z.string().min(2).max(30),
  description: z.string().max(100),
  summary: z.string().max(2048).optional(),
  icon: base64.optional(),
  previewImages: z.array(base64).max(3).optional(),
  visibility: z.enum(INTEGRATION_VISIBILITIES).optional(),
  target: z.enum(INTEGRATION_TARGETS).optional(),
  scopes: z.array(z.enum(INTEGRATION_SCOPES)).max(INTEGRATION_SCOPES.length),
  categories: z.array(z.enum(INTEGRATION_CATEGORIES)).max(INTEGRATION_CATEGORIES.length).optional(),
  blocks: z.array(block).max(50).optional(),
  contentSources: z.array(contentSource).max(50).optional(),
  externalLinks: z.array(z.object({ url: httpUrl, label: z.string().min(1).max(100) })).max(5).optional(),
  configurations: z.object({ account: configuration.optional(), space: configuration.optional(), site: configuration.optional() }).optional(),
  script: z.string().min(1),
  organization: z.string().min(1).max(100),
  secrets: z
    .record(z.string().min(1).max(100), z.string().max(10_000))
    .refine((secrets) => Object.keys(secrets).length <= 20, 'at most 20 secrets')
    .optional(),
  contentSecurityPolicy: z.union([z.string().max(10_000), z.record(z.string(), z.string().max(10_000))]).optional(),
  runtime: z.enum(['v1', 'v2']).optional(),
});

export type PublishInput = z.infer<typeof publishBody>;

/** The body checked, or a 400 naming the first field that is wrong. */
export function parsePublishBody(input: unknown): PublishInput {
  const parsed = publishBody.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? issue.path.join('.') : 'body';
    throw new BadRequestError(`Invalid "${field}": ${issue.message}`);
  }
  if (Buffer.byteLength(parsed.data.script, 'utf8') > MAX_SCRIPT_BYTES) throw new BadRequestError(`Invalid "script": at most ${MAX_SCRIPT_BYTES} bytes`);
  return parsed.data;
}

/** A base64 image: its bytes and what it is, or a 400 naming `field`. */
export function decodeImage(field: string, value: string): { bytes: Uint8Array<ArrayBuffer>; contentType: string } {
  const bytes = new Uint8Array(Buffer.from(value, 'base64'));
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new BadRequestError(`Invalid "${field}": an image is at most ${MAX_IMAGE_BYTES} bytes (got ${bytes.byteLength})`);
  const image = detectImage(bytes);
  if (!image) throw new BadRequestError(`Invalid "${field}": not an image (PNG, JPEG, GIF, WebP, SVG …)`);
  return { bytes, contentType: image.contentType };
}

/** The hosts a block unfurls (`https://example.com/*` → `example.com`), for the `blockDomain` filter. */
export function blockDomainsOf(blocks: PublishInput['blocks']): string[] {
  const hosts = new Set<string>();
  for (const pattern of (blocks ?? []).flatMap((b) => b.urlUnfurl ?? [])) {
    try {
      hosts.add(new URL(pattern.replace(/\*/g, 'x')).hostname.replace(/^x\./, ''));
    } catch {
      // Not a URL pattern: nothing to filter on.
    }
  }
  return [...hosts];
}
