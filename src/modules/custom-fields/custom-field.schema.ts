import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { listSpaceFieldValues, setSpaceFieldValues, type SpaceFieldValue } from './custom-field-value.service.ts';
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  NAME_PATTERN,
  updateCustomField,
} from './custom-field.service.ts';
import { stringEnumScalar } from '../../graphql/string-enum.ts';
import { CUSTOM_FIELD_TYPE_NAMES, fieldTypeName, MAX_TEXT_VALUE } from './custom-field.types.ts';

/** The type set, spelled exactly as in REST JSON ("multi-select" has a hyphen, so a scalar, not an enum). */
const CustomFieldTypeScalar = stringEnumScalar(
  'CustomFieldType',
  CUSTOM_FIELD_TYPE_NAMES,
  'Type of a custom field: text, number, boolean, select (one option), multi-select (several options), date (YYYY-MM-DD), url',
);

const CustomFieldUrls = builder.simpleObject('CustomFieldUrls', {
  fields: (t) => ({ location: t.string({ description: 'URL of the custom field in the API', extensions: constrained({ format: 'uri' }) }) }),
});

/**
 * `type` is a String, not a GraphQL enum: enum values cannot contain "-", and the documented
 * spelling `multi-select` must be the same in REST JSON, REST input and GraphQL.
 */
export const CustomFieldRef = builder.prismaObject('CustomField', {
  description: 'An organization-wide field that every space of the organization can fill in',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: 'Unique name in the organization (1..50, ^[a-z_\\-0-9]+$)' }),
    title: t.exposeString('title', { nullable: true, description: 'Title shown to users (max 100)' }),
    description: t.exposeString('description', { nullable: true, description: 'Description (max 200)' }),
    type: t.field({ type: CustomFieldTypeScalar, description: 'Type of the values', resolve: (f) => fieldTypeName(f.type) }),
    placeholder: t.exposeString('placeholder', { nullable: true, description: 'Placeholder of the input (max 100)' }),
    options: t.stringList({
      nullable: true,
      description: 'Choices of a select or multi-select field (1..50); absent for other types',
      resolve: (f) => (f.options.length ? f.options : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    urls: t.field({
      type: CustomFieldUrls,
      resolve: (f, _args, ctx) => ({ location: `${ctx.config.apiUrl}/orgs/${f.organizationId}/custom-fields/${f.name}` }),
    }),
  }),
});

export const CustomFieldList = listType('CustomField', CustomFieldRef);

const VALUE_DESCRIPTION =
  'The value, by type: text → string (max 10000); number → decimal string (a JSON number is accepted and stored as a string); ' +
  'boolean → "true" or "false" (JSON booleans accepted); date → "YYYY-MM-DD"; url → absolute http(s) URL; ' +
  'select → one of the options; multi-select → array of distinct options (the one non-string value)';

export const SpaceCustomFieldValueRef = builder.objectRef<SpaceFieldValue>('SpaceCustomFieldValue').implement({
  description: "A custom field of the space's organization and the space's value for it",
  fields: (t) => ({
    customField: t.field({ type: CustomFieldRef, resolve: (v) => v.customField }),
    value: t.field({
      type: 'JSON',
      nullable: true,
      description: `${VALUE_DESCRIPTION}. Null (absent in REST) when the space has no value`,
      // What normalizeValue stores (custom-field.types.ts): a string, or a multi-select's options.
      extensions: shaped({ oneOf: [{ type: 'string' }, { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } }] }),
      resolve: (v) => v.value,
    }),
  }),
});

const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));
const fieldPath = builder.args((t) => ({
  ...organizationPath,
  fieldName: t.string({ required: true, description: 'Name of the custom field' }),
}));
const spacePath = builder.args((t) => ({ spaceId: t.string({ required: true, description: 'ID of the space' }) }));
const texts = builder.args((t) => ({
  title: t.string({ description: 'Title (max 100)', extensions: constrained({ maxLength: 100 }) }),
  description: t.string({ description: 'Description (max 200)', extensions: constrained({ maxLength: 200 }) }),
  placeholder: t.string({ description: 'Placeholder (max 100)', extensions: constrained({ maxLength: 100 }) }),
}));
const optionsDescription = `1..${MAX_OPTIONS} distinct, non-empty choices of at most ${MAX_OPTION_LENGTH} characters`;
const optionsConstraints = constrained({ minItems: 1, maxItems: MAX_OPTIONS, items: { minLength: 1, maxLength: MAX_OPTION_LENGTH } });

builder.queryFields((t) => ({
  organizationCustomFields: t.field({
    type: CustomFieldList,
    description: 'Custom fields of an organization, in creation order (any member)',
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx) => listCustomFields(ctx, organizationId, args),
  }),
  organizationCustomField: t.field({
    type: CustomFieldRef,
    description: 'One custom field of an organization, by name (any member)',
    args: fieldPath,
    resolve: (_root, args, ctx) => getCustomField(ctx, args.organizationId, args.fieldName),
  }),
  spaceCustomFields: t.field({
    type: [SpaceCustomFieldValueRef],
    description: "Every custom field of the space's organization, with the space's value when it has one (read level on the space)",
    args: spacePath,
    resolve: (_root, args, ctx) => listSpaceFieldValues(ctx, args.spaceId),
  }),
}));

builder.mutationFields((t) => ({
  createCustomField: t.field({
    type: CustomFieldRef,
    description: 'Create a custom field (organization admins only)',
    args: {
      ...organizationPath,
      name: t.arg.string({
        required: true,
        description: 'Name, unique in the organization (1..50, ^[a-z_\\-0-9]+$)',
        extensions: constrained({ minLength: 1, maxLength: 50, pattern: NAME_PATTERN.source }),
      }),
      type: t.arg({ type: CustomFieldTypeScalar, required: true, description: 'Type of the values' }),
      ...texts,
      options: t.arg.stringList({
        description: `Required for select and multi-select fields, refused for others: ${optionsDescription}`,
        extensions: optionsConstraints,
      }),
    },
    resolve: (_root, { organizationId, ...input }, ctx) => createCustomField(ctx, organizationId, { ...input, type: input.type as string }),
  }),
  updateCustomField: t.field({
    type: CustomFieldRef,
    description: 'Change a custom field (organization admins only); null clears title, description or placeholder',
    args: {
      ...fieldPath,
      ...texts,
      options: t.arg.stringList({
        description: `Select and multi-select fields only: ${optionsDescription}. A removed option is removed from every space's value`,
        extensions: optionsConstraints,
      }),
    },
    resolve: (_root, { organizationId, fieldName, ...input }, ctx) => updateCustomField(ctx, organizationId, fieldName, input),
  }),
  deleteCustomField: t.boolean({
    description: 'Delete a custom field and its value on every space (organization admins only)',
    args: fieldPath,
    resolve: (_root, args, ctx) => deleteCustomField(ctx, args.organizationId, args.fieldName),
  }),
  updateSpaceCustomFields: t.boolean({
    description: 'Set several custom field values of a space at once, all or nothing (edit level on the space)',
    args: {
      ...spacePath,
      values: t.arg({
        type: 'JSON',
        required: true,
        description: `Map of field name → { value }; value null clears it. ${VALUE_DESCRIPTION} (text max ${MAX_TEXT_VALUE})`,
      }),
    },
    resolve: (_root, args, ctx) => setSpaceFieldValues(ctx, args.spaceId, args.values),
  }),
}));

/** Importing this module registers its schema; its REST routes come with it. */
