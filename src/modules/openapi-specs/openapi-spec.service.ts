import type { OpenAPISpec, Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, can } from '../../core/authorization.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { parseHttpUrl } from '../../lib/safe-fetch.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, checkPattern } from '../../core/validate.ts';
import { organizationActor } from '../organizations/index.ts';
import { openApiSpecPolicy, type SpecActor } from './openapi-spec.policy.ts';
import { enqueueSpecProcessing } from './openapi-processing.ts';

/**
 * OpenAPI specs of an organization, by slug: created and updated from a URL (`{ url }`) or the text
 * itself (`{ text }`), then processed in the background (openapi-processing.ts). Members read them,
 * admins change them.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SPEC_TEXT_BYTES = 5 * 1024 * 1024;
const MAX_URL = 2048;
const ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

export type SpecView = OpenAPISpec & { canEdit: boolean };

/** The source of a spec: exactly one of `url` (absolute http(s), ≤ 2048) and `text` (JSON or YAML, ≤ 5 MB). */
export function checkSource(source: unknown): { url: string } | { text: string } {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) throw new BadRequestError('Invalid "source": must be { url } or { text }');
  const { url, text, ...rest } = source as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw new BadRequestError(`Invalid "source": unknown field "${extra[0]}" (give { url } or { text })`);
  if ((url === undefined) === (text === undefined)) throw new BadRequestError('Invalid "source": give exactly one of "url" and "text"');
  if (url !== undefined) {
    if (typeof url !== 'string') throw new BadRequestError('Invalid "source.url": must be a string');
    checkLength('source.url', url, 1, MAX_URL);
    try {
      parseHttpUrl(url);
    } catch (error) {
      throw new BadRequestError(`Invalid "source.url": ${(error as Error).message}`);
    }
    return { url };
  }
  if (typeof text !== 'string' || text.length === 0) throw new BadRequestError('Invalid "source.text": must be a non-empty string');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SPEC_TEXT_BYTES) throw new BadRequestError(`Invalid "source.text": at most ${MAX_SPEC_TEXT_BYTES} bytes (got ${bytes})`);
  if (text.includes('\u0000')) throw new BadRequestError('Invalid "source.text": must not contain NUL characters');
  return { text };
}

function checkSlug(slug: string) {
  checkLength('slug', slug, 1, 100);
  checkPattern('slug', slug, SLUG_PATTERN, 'lower-case letters and digits in words joined by single "-" (e.g. "pet-store")');
}

async function actorOf(ctx: Context, organizationId: string): Promise<SpecActor> {
  const [actor, access] = await Promise.all([organizationActor(ctx, organizationId), ctx.loaders.organizationAccess.load(organizationId)]);
  return { ...actor, organizationSso: access?.organization.sso ?? false };
}

const view = (actor: SpecActor, spec: OpenAPISpec): SpecView => ({ ...spec, canEdit: can(openApiSpecPolicy, actor, 'edit', spec) });

export async function listSpecs(ctx: Context, organizationId: string, args: ListArgs) {
  const actor = await actorOf(ctx, organizationId);
  authorize(openApiSpecPolicy, actor, 'read', { slug: '' });
  const page = await paginate({ args, keys: ORDER, where: { organizationId }, model: ctx.db.openAPISpec });
  return { ...page, items: page.items.map((spec) => view(actor, spec)) };
}

async function findSpec(ctx: Context, organizationId: string, slug: string, action: 'read' | 'edit') {
  const [actor, spec] = await Promise.all([actorOf(ctx, organizationId), ctx.db.openAPISpec.findUnique({ where: { organizationId_slug: { organizationId, slug } } })]);
  authorize(openApiSpecPolicy, actor, 'read', { slug });
  if (!spec) throw new NotFoundError(openApiSpecPolicy.notFound({ slug }));
  authorize(openApiSpecPolicy, actor, action, spec);
  return { actor, spec };
}

export async function getSpec(ctx: Context, organizationId: string, slug: string) {
  const { actor, spec } = await findSpec(ctx, organizationId, slug, 'read');
  return view(actor, spec);
}

/** The source's columns: a URL spec has no text row; a text spec no URL. */
async function writeSource(tx: Prisma.TransactionClient, specId: string, source: { url: string } | { text: string }) {
  if ('text' in source) await tx.openAPISpecSource.upsert({ where: { specId }, create: { specId, text: source.text }, update: { text: source.text } });
  else await tx.openAPISpecSource.deleteMany({ where: { specId } });
}

/** `POST …/openapi`: a new spec (409 when the slug is taken), `pending` until processed. */
export async function createSpec(ctx: Context, organizationId: string, input: { slug: string; source: unknown }) {
  checkSlug(input.slug);
  const source = checkSource(input.source);
  const actor = await actorOf(ctx, organizationId);
  authorize(openApiSpecPolicy, actor, 'edit', { slug: input.slug });
  const now = ctx.clock.now();
  const id = newId();
  try {
    const spec = await ctx.db.$transaction(async (tx) => {
      const created = await tx.openAPISpec.create({
        data: { id, organizationId, slug: input.slug, sourceUrl: 'url' in source ? source.url : null, createdById: actor.userId, createdAt: now, updatedAt: now },
      });
      await writeSource(tx, id, source);
      await enqueueSpecProcessing(tx, id, now);
      return created;
    }, TRANSACTION_OPTIONS);
    return view(actor, spec);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`Invalid "slug": this organization already has an OpenAPI spec "${input.slug}"`);
    throw error;
  }
}

/**
 * `PUT …/openapi/{slug}`: creates the spec, or gives it a new source; either way `pending` until the
 * job processed it. (GitBook's CLI sends this, and never waits for the processing.)
 */
export async function putSpec(ctx: Context, organizationId: string, slug: string, input: { source: unknown }) {
  checkSlug(slug);
  const source = checkSource(input.source);
  const actor = await actorOf(ctx, organizationId);
  authorize(openApiSpecPolicy, actor, 'edit', { slug });
  const now = ctx.clock.now();
  const sourceUrl = 'url' in source ? source.url : null;
  const spec = await ctx.db.$transaction(async (tx) => {
    const saved = await tx.openAPISpec.upsert({
      where: { organizationId_slug: { organizationId, slug } },
      create: { id: newId(), organizationId, slug, sourceUrl, createdById: actor.userId, createdAt: now, updatedAt: now },
      update: { sourceUrl, processingState: 'pending', sourceGeneration: { increment: 1 }, updatedAt: now },
    });
    await writeSource(tx, saved.id, source);
    await enqueueSpecProcessing(tx, saved.id, now);
    return saved;
  }, TRANSACTION_OPTIONS);
  return view(actor, spec);
}

export async function deleteSpec(ctx: Context, organizationId: string, slug: string): Promise<boolean> {
  const { spec } = await findSpec(ctx, organizationId, slug, 'edit');
  await ctx.db.openAPISpec.deleteMany({ where: { id: spec.id } });
  return true;
}
