import type { Integration, Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { paginate, type ItemQuery, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, checkPattern } from '../../core/validate.ts';
import { databaseFileStore } from '../content/index.ts';
import { organizationActor, organizationFor } from '../organizations/index.ts';
import { blockDomainsOf, decodeImage, INTEGRATION_CATEGORIES, NAME_PATTERN, parsePublishBody } from './integration-inputs.ts';
import { integrationPolicy } from './integration.policy.ts';
import { encryptSecrets } from './integration-secrets.ts';

/**
 * Integrations (GitBook's): published by an organization's admins under a name the organization keeps,
 * listed for everyone when public, for the owner's members when private or unlisted. The script is
 * stored as published, never run: this server hosts no integration runtime.
 */
export const ORDER: SortKey[] = [{ field: 'name', direction: 'asc' }];

export function checkName(name: string) {
  checkLength('integrationName', name, 1, 100);
  checkPattern('integrationName', name, NAME_PATTERN, 'letters, digits, "-", "_" and "."');
}

/** An integration the caller may see (private ones: its owner's members), for `action`. */
export async function integrationFor(ctx: Context, name: string, action: 'read' | 'manage', query?: ItemQuery): Promise<Integration> {
  checkName(name);
  const integration = await ctx.db.integration.findUnique({ where: { name }, ...(query as object) });
  if (!integration) throw new NotFoundError(integrationPolicy.notFound({ name, visibility: 'private' }));
  authorize(integrationPolicy, await organizationActor(ctx, integration.organizationId), action, integration);
  return integration;
}

/** The organization to publish under: an ID, or its hostname (GitBook's "subdomain"); the caller must be its admin. */
async function publisherOrganization(ctx: Context, idOrHostname: string) {
  const found = await ctx.db.organization.findFirst({ where: { OR: [{ id: idOrHostname }, { hostname: idOrHostname }] }, select: { id: true } });
  return (await organizationFor(ctx, found?.id ?? idOrHostname, 'update')).organization;
}

/**
 * `POST /integrations/{name}` (GitBook's publishIntegration): creates the integration, or replaces it
 * and bumps its version when its organization publishes it again; a name another organization holds is
 * a 409. Images are checked to be images and stored once by their hash; secrets are encrypted.
 */
export async function publishIntegration(ctx: Context, name: string, input: unknown, query?: ItemQuery): Promise<Integration> {
  checkName(name);
  const body = parsePublishBody(input);
  const icon = body.icon ? decodeImage('icon', body.icon) : null;
  const previews = (body.previewImages ?? []).map((image, i) => decodeImage(`previewImages[${i}]`, image));
  const organization = await publisherOrganization(ctx, body.organization);
  const now = ctx.clock.now();
  const secretsEncrypted = body.secrets ? await encryptSecrets(ctx.db, body.secrets) : null;
  const fields = {
    title: body.title,
    description: body.description,
    summary: body.summary ?? null,
    visibility: body.visibility ?? 'private',
    target: body.target ?? 'all',
    scopes: body.scopes,
    categories: body.categories ?? [],
    blocks: (body.blocks ?? []) as Prisma.InputJsonValue,
    contentSources: (body.contentSources ?? []) as Prisma.InputJsonValue,
    configurations: (body.configurations ?? {}) as Prisma.InputJsonValue,
    externalLinks: (body.externalLinks ?? []) as Prisma.InputJsonValue,
    contentSecurityPolicy: (body.contentSecurityPolicy ?? undefined) as Prisma.InputJsonValue | undefined,
    blockDomains: blockDomainsOf(body.blocks),
    hasBlocks: (body.blocks ?? []).length > 0,
    hasContentSources: (body.contentSources ?? []).length > 0,
    runtime: body.runtime ?? 'v1',
    script: body.script,
    secretsEncrypted,
    publishedById: ctx.viewer?.user.id ?? null,
    updatedAt: now,
  };
  await ctx.db.$transaction(async (tx) => {
    const stored = async ({ bytes }: { bytes: Uint8Array<ArrayBuffer> }) => (await databaseFileStore.put(tx, bytes)).hash;
    const iconHash = icon ? await stored(icon) : null;
    const previewImageHashes = [];
    for (const preview of previews) previewImageHashes.push(await stored(preview));
    const images = { iconHash, iconContentType: icon?.contentType ?? null, previewImageHashes, previewImageTypes: previews.map((p) => p.contentType) };
    // The row of the name, locked: two publications of one name do not interleave.
    const existing = await tx.$queryRaw<{ organizationId: string }[]>`SELECT "organizationId" FROM "Integration" WHERE "name" = ${name} FOR UPDATE`;
    if (existing[0] && existing[0].organizationId !== organization.id) {
      throw new ConflictError(`Integration "${name}" is published by another organization: choose another name`);
    }
    if (existing[0]) {
      await tx.integration.update({ where: { name }, data: { ...fields, ...images, version: { increment: 1 } } });
    } else {
      await tx.integration.create({ data: { ...fields, ...images, name, organizationId: organization.id, createdAt: now } });
    }
  }, TRANSACTION_OPTIONS);
  return integrationFor(ctx, name, 'read', query);
}

export interface IntegrationFilters {
  search?: string | null;
  category?: string | null;
  blockDomain?: string | null;
  blocks?: boolean | null;
  contentSources?: boolean | null;
  owner?: string | null;
}

/**
 * `GET /integrations`: public integrations, and the private and unlisted ones of the organizations where
 * the caller holds a role; by name, filtered.
 */
export async function listIntegrations(ctx: Context, args: ListArgs & IntegrationFilters, query?: ItemQuery) {
  checkLength('search', args.search, 0, 100);
  checkLength('blockDomain', args.blockDomain, 1, 100);
  checkPattern('blockDomain', args.blockDomain, NAME_PATTERN, 'letters, digits, "-", "_" and "."');
  if (args.category && !(INTEGRATION_CATEGORIES as readonly string[]).includes(args.category)) {
    throw new BadRequestError(`Invalid "category": must be one of ${INTEGRATION_CATEGORIES.join(', ')}`);
  }
  const userId = ctx.viewer?.user.id ?? '';
  const filters: Prisma.IntegrationWhereInput[] = [
    { OR: [{ visibility: 'public' }, { organization: { members: { some: { userId, disabled: false, role: { not: null } } } } }] },
  ];
  if (args.search) filters.push({ OR: [{ name: { contains: args.search, mode: 'insensitive' } }, { title: { contains: args.search, mode: 'insensitive' } }] });
  if (args.category) filters.push({ categories: { has: args.category } });
  if (args.blockDomain) filters.push({ blockDomains: { has: args.blockDomain.toLowerCase() } });
  if (typeof args.blocks === 'boolean') filters.push({ hasBlocks: args.blocks });
  if (typeof args.contentSources === 'boolean') filters.push({ hasContentSources: args.contentSources });
  if (args.owner) filters.push({ organizationId: args.owner });
  return paginate({ args, keys: ORDER, where: { AND: filters }, model: ctx.db.integration, query });
}

/** `DELETE /integrations/{name}`: its owner's admins; its installations go with it. */
export async function unpublishIntegration(ctx: Context, name: string): Promise<boolean> {
  await integrationFor(ctx, name, 'manage');
  await ctx.db.integration.deleteMany({ where: { name } });
  return true;
}
