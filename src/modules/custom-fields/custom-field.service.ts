import type { CustomField, Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError, rethrowDatabaseError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize, checkLength, checkPattern, rejectNull } from '../../core/validate.ts';
import { organizationForMember } from '../organizations/index.ts';
import { customFieldPolicy } from './custom-field.policy.ts';
import { fieldTypeName, hasOptions, parseFieldType, pruneToOptions } from './custom-field.types.ts';

/** Creation order; the same order lists a space's values. */
export const CUSTOM_FIELD_SORT: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];
export const NAME_PATTERN = /^[a-z_\-0-9]+$/;
export const MAX_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 100;

/** Any member reads the fields: that is reading the organization (`organizationForMember`). */
async function organizationForFieldChange(ctx: Context, organizationId: string, action: 'create' | 'update' | 'delete') {
  const access = await organizationForMember(ctx, organizationId);
  authorize(customFieldPolicy, access.actor, action, { organizationId });
  return access;
}

async function findField(db: Prisma.TransactionClient, organizationId: string, fieldName: string): Promise<CustomField> {
  const field = await db.customField.findUnique({ where: { organizationId_name: { organizationId, name: fieldName } } });
  if (!field) throw new NotFoundError(`Custom field "${fieldName}" not found in this organization`);
  return field;
}

interface TextInput {
  title?: string | null;
  description?: string | null;
  placeholder?: string | null;
}

function checkTexts(input: TextInput) {
  checkLength('title', input.title, 0, 100);
  checkLength('description', input.description, 0, 200);
  checkLength('placeholder', input.placeholder, 0, 100);
}

/** `options` of a select or multi-select field: 1..50 distinct, non-empty strings of at most 100 characters. */
function checkOptions(options: string[]) {
  checkArraySize('options', options, 1, MAX_OPTIONS);
  options.forEach((option, i) => checkLength(`options[${i}]`, option, 1, MAX_OPTION_LENGTH));
  const repeated = options.find((o, i) => options.indexOf(o) !== i);
  if (repeated !== undefined) throw new BadRequestError(`Invalid "options": "${repeated}" is listed twice`);
}

function refuseOptions(typeName: string) {
  return new BadRequestError(`Invalid "options": only select and multi-select fields have options, not ${typeName} fields`);
}

export async function listCustomFields(ctx: Context, organizationId: string, args: ListArgs) {
  await organizationForMember(ctx, organizationId);
  return paginate({
    args,
    keys: CUSTOM_FIELD_SORT,
    where: { organizationId },
    model: ctx.db.customField,
  });
}

export async function getCustomField(ctx: Context, organizationId: string, fieldName: string) {
  await organizationForMember(ctx, organizationId);
  return findField(ctx.db, organizationId, fieldName);
}

export interface CreateCustomFieldInput extends TextInput {
  name: string;
  type: string;
  options?: string[] | null;
}

export async function createCustomField(ctx: Context, organizationId: string, input: CreateCustomFieldInput) {
  await organizationForFieldChange(ctx, organizationId, 'create');
  rejectNull('name', input.name);
  rejectNull('type', input.type);
  checkLength('name', input.name, 1, 50);
  checkPattern('name', input.name, NAME_PATTERN, 'lowercase letters, digits, "_" and "-"');
  const type = parseFieldType(input.type);
  checkTexts(input);
  if (hasOptions(type)) {
    if (input.options === undefined || input.options === null) {
      throw new BadRequestError(`Invalid "options": required for ${input.type} fields`);
    }
    checkOptions(input.options);
  } else if (input.options !== undefined && input.options !== null) {
    throw refuseOptions(input.type);
  }
  const now = ctx.clock.now();
  try {
    return await ctx.db.customField.create({
      data: {
        id: newId(),
        organizationId,
        name: input.name,
        type,
        title: input.title ?? null,
        description: input.description ?? null,
        placeholder: input.placeholder ?? null,
        options: input.options ?? [],
        createdAt: now,
        updatedAt: now,
      },
    });
  } catch (error) {
    rethrowDatabaseError(error, { unique: `A custom field named "${input.name}" already exists in this organization` });
  }
}

export interface UpdateCustomFieldInput extends TextInput {
  options?: string[] | null;
}

/**
 * Changes a field's texts and options. Option-change policy: removing an option removes it from every
 * space's value in the same transaction (a select value on that option is cleared; a multi-select value
 * loses that entry, and is cleared when no entry remains) — the same rule as deleting a field, applied
 * to one option, so no stored value ever names an option its field no longer has. The field row is
 * locked first, and setting space values locks it for share, so a concurrent PATCH of values cannot
 * slip a removed option in between.
 */
export async function updateCustomField(ctx: Context, organizationId: string, fieldName: string, input: UpdateCustomFieldInput) {
  await organizationForFieldChange(ctx, organizationId, 'update');
  checkTexts(input);
  if (input.options !== undefined && input.options !== null) checkOptions(input.options);
  return ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "CustomField" WHERE "organizationId" = ${organizationId} AND "name" = ${fieldName} FOR UPDATE`;
    const field = await findField(tx, organizationId, fieldName);
    const typeName = fieldTypeName(field.type);
    if (hasOptions(field.type)) rejectNull('options', input.options);
    else if (input.options !== undefined && input.options !== null) throw refuseOptions(typeName);
    const options = hasOptions(field.type) ? (input.options ?? undefined) : undefined;
    const updated = await tx.customField.update({
      where: { id: field.id },
      data: { title: input.title, description: input.description, placeholder: input.placeholder, options, updatedAt: ctx.clock.now() },
    });
    if (options) await pruneRemovedOptions(tx, field, options);
    return updated;
  });
}

async function pruneRemovedOptions(tx: Prisma.TransactionClient, field: CustomField, options: string[]) {
  const removed = field.options.filter((o) => !options.includes(o));
  if (!removed.length) return;
  const usesRemoved: Prisma.CustomFieldValueWhereInput[] =
    field.type === 'select'
      ? removed.map((o) => ({ value: { equals: o } }))
      : removed.map((o) => ({ value: { array_contains: [o] } }));
  const affected = await tx.customFieldValue.findMany({ where: { fieldId: field.id, OR: usesRemoved } });
  const cleared: string[] = [];
  for (const row of affected) {
    const kept = pruneToOptions(field.type, row.value, options);
    if (kept === null) cleared.push(row.spaceId);
    // updateMany: the value may have gone meanwhile (its space transferred or purged), which is fine.
    else await tx.customFieldValue.updateMany({ where: { spaceId: row.spaceId, fieldId: field.id }, data: { value: kept } });
  }
  if (cleared.length) await tx.customFieldValue.deleteMany({ where: { fieldId: field.id, spaceId: { in: cleared } } });
}

/** Deletes the field; its values on every space go with it (foreign key ON DELETE CASCADE). */
export async function deleteCustomField(ctx: Context, organizationId: string, fieldName: string): Promise<boolean> {
  await organizationForFieldChange(ctx, organizationId, 'delete');
  const { count } = await ctx.db.customField.deleteMany({ where: { organizationId, name: fieldName } });
  if (count === 0) throw new NotFoundError(`Custom field "${fieldName}" not found in this organization`);
  return true;
}
