import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { checkAdaptiveSchema } from './adaptive-content.ts';
import { siteFor } from './site-access.ts';

export interface AdaptiveSchema {
  object: 'site-adaptive-schema';
  jsonSchema: unknown;
  updatedAt: Date;
}

/** `GET …/adaptive-schema`: any member; 404 until one is set (GitBook's answer). */
export async function getAdaptiveSchema(ctx: Context, organizationId: string, siteId: string): Promise<AdaptiveSchema> {
  const { site } = await siteFor(ctx, organizationId, siteId, 'read');
  if (site.adaptiveSchema === null || !site.adaptiveSchemaUpdatedAt) throw new NotFoundError(`Site "${siteId}" has no adaptive schema yet`);
  return { object: 'site-adaptive-schema', jsonSchema: site.adaptiveSchema, updatedAt: site.adaptiveSchemaUpdatedAt };
}

/** `PUT …/adaptive-schema`: creates or replaces it (`edit` on the site); checked with Ajv first. */
export async function putAdaptiveSchema(ctx: Context, organizationId: string, siteId: string, jsonSchema: unknown): Promise<AdaptiveSchema> {
  checkAdaptiveSchema(jsonSchema);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const now = ctx.clock.now();
  await ctx.db.site.update({ where: { id: site.id }, data: { adaptiveSchema: jsonSchema as Prisma.InputJsonValue, adaptiveSchemaUpdatedAt: now, updatedAt: now } });
  return { object: 'site-adaptive-schema', jsonSchema, updatedAt: now };
}
