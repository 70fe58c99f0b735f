import { Prisma, type CustomField } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError } from '../../core/errors.ts';
import { orderByKeys } from '../../core/pagination.ts';
import { spaceFor } from '../content-access/index.ts';
import { spaceFieldValuesPolicy } from './custom-field.policy.ts';
import { CUSTOM_FIELD_SORT } from './custom-field.service.ts';
import { normalizeValue, type StoredValue } from './custom-field.types.ts';

/** One item of `GET /spaces/{spaceId}/custom-fields`: a field of the organization and the space's value. */
export interface SpaceFieldValue {
  customField: CustomField;
  /** null: the space has no value for the field (the `value` key is then absent from REST JSON). */
  value: StoredValue | null;
}

/** Every field of the space's organization, in creation order, each with the space's value if set. */
export async function listSpaceFieldValues(ctx: Context, spaceId: string): Promise<SpaceFieldValue[]> {
  // Reading the values is reading the space.
  const { space } = await spaceFor(ctx, spaceId, 'read');
  const fields = await ctx.db.customField.findMany({
    where: { organizationId: space.organizationId },
    orderBy: orderByKeys(CUSTOM_FIELD_SORT) as Prisma.CustomFieldOrderByWithRelationInput[],
    include: { values: { where: { spaceId } } },
  });
  return fields.map(({ values, ...customField }) => ({
    customField,
    value: values.length ? (values[0].value as StoredValue) : null,
  }));
}

/** `{ <field name>: { value } }` → [name, value] pairs, refusing any other shape with a 400 naming the key. */
function parseValuesMap(values: unknown): [string, unknown][] {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new BadRequestError('Invalid "values": must be an object mapping a field name to { value }');
  }
  return Object.entries(values as Record<string, unknown>).map(([name, entry]) => {
    const keys = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.keys(entry) : null;
    if (!keys || keys.length !== 1 || keys[0] !== 'value') {
      throw new BadRequestError(`Invalid "values.${name}": must be an object { value } (value null clears it)`);
    }
    return [name, (entry as { value: unknown }).value];
  });
}

/**
 * Sets several values of a space at once, all or nothing: every name and value is checked before
 * anything is written, and the writes share one transaction. `value: null` (or an empty multi-select
 * list) clears a value. The organization's fields are locked for share meanwhile, so a field's options
 * cannot change (or the field disappear) between the check and the write.
 *
 * Concurrent PATCHes of one space: values are written with INSERT … ON CONFLICT DO UPDATE (a
 * delete-then-insert lets two requests insert the same key: a duplicate-key error), and the space row is
 * locked first, so such requests apply one after the other, each whole, instead of interleaving per field
 * (or deadlocking on each other's rows).
 */
export async function setSpaceFieldValues(ctx: Context, spaceId: string, values: unknown): Promise<boolean> {
  const { space, actor } = await spaceFor(ctx, spaceId, 'read');
  authorize(spaceFieldValuesPolicy, actor, 'set', space);
  const entries = parseValuesMap(values);
  if (!entries.length) return true;
  const organizationId = space.organizationId;
  await ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "CustomField" WHERE "organizationId" = ${organizationId} FOR SHARE`;
    const fields = await tx.customField.findMany({ where: { organizationId, name: { in: entries.map(([name]) => name) } } });
    const byName = new Map(fields.map((f) => [f.name, f]));
    const now = ctx.clock.now();
    const writes: Prisma.Sql[] = [];
    const cleared: string[] = [];
    for (const [name, value] of entries) {
      const field = byName.get(name);
      if (!field) throw new BadRequestError(`Invalid "values.${name}": no custom field named "${name}" in this organization`);
      const stored = normalizeValue(field, value);
      if (stored === null) cleared.push(field.id);
      else writes.push(Prisma.sql`(${spaceId}, ${field.id}, ${JSON.stringify(stored)}::jsonb, ${now})`);
    }
    // FOR NO KEY UPDATE: other writers of this space's values wait; readers and foreign-key checks do not.
    await tx.$executeRaw`SELECT 1 FROM "Space" WHERE "id" = ${spaceId} FOR NO KEY UPDATE`;
    if (cleared.length) await tx.customFieldValue.deleteMany({ where: { spaceId, fieldId: { in: cleared } } });
    if (writes.length) {
      await tx.$executeRaw`
        INSERT INTO "CustomFieldValue" ("spaceId", "fieldId", "value", "updatedAt") VALUES ${Prisma.join(writes)}
        ON CONFLICT ("spaceId", "fieldId") DO UPDATE SET "value" = EXCLUDED."value", "updatedAt" = EXCLUDED."updatedAt"`;
    }
  });
  return true;
}
