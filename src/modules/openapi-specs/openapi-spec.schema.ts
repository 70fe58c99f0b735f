import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { createSpec, deleteSpec, getSpec, listSpecs, MAX_SPEC_TEXT_BYTES, putSpec, SLUG_PATTERN, type SpecView } from './openapi-spec.service.ts';

const ProcessingStateEnum = builder.enumType('OpenAPISpecProcessingState', {
  description: 'pending (its source changed), progress (being processed), complete (processed; see lastProcessErrorCode)',
  values: ['pending', 'progress', 'complete'] as const,
});
const ErrorCodeEnum = builder.enumType('OpenAPISpecProcessingErrorCode', {
  description: 'FETCH_TIMEOUT: its URL did not answer in time; FETCH_ERROR: it could not be fetched; PARSE_ERROR: not a valid OpenAPI 3.0/3.1 or Swagger 2.0 document',
  values: ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const,
});
const SpecError = builder.simpleObject('OpenAPISpecProcessingError', { fields: (t) => ({ message: t.string() }) });
const SpecPermissions = builder.simpleObject('OpenAPISpecPermissions', { fields: (t) => ({ view: t.boolean(), edit: t.boolean() }) });
const uri = constrained({ format: 'uri' });
const SpecUrls = builder.simpleObject('OpenAPISpecUrls', { fields: (t) => ({ location: t.string({ extensions: uri }), app: t.string({ extensions: uri }) }) });

const processingErrors = (spec: SpecView) => (Array.isArray(spec.lastProcessedErrors) ? (spec.lastProcessedErrors as { message: string }[]) : []);

const SpecRef = builder.objectRef<SpecView>('OpenAPISpec').implement({
  description: 'An OpenAPI specification of the organization, processed in the background after each change of its source',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['openapi-spec'] }), resolve: () => 'openapi-spec' }),
    id: t.exposeString('id'),
    slug: t.exposeString('slug'),
    sourceURL: t.string({
      nullable: true,
      description: 'Where it is fetched from (specs given as text have none)',
      extensions: constrained({ format: 'uri', maxLength: 2048 }),
      resolve: (s) => s.sourceUrl,
    }),
    processingState: t.field({ type: ProcessingStateEnum, resolve: (s) => s.processingState }),
    lastProcessedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastProcessedAt }),
    lastProcessErrorCode: t.field({ type: ErrorCodeEnum, nullable: true, resolve: (s) => s.lastProcessErrorCode }),
    lastProcessedErrors: t.field({ type: [SpecError], description: 'What went wrong the last time (empty when it went well)', resolve: processingErrors }),
    lastProcessedErrorCount: t.int({ resolve: (s) => processingErrors(s).length }),
    lastVersion: t.string({ nullable: true, description: 'ID of its latest version', resolve: (s) => s.lastVersionId }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
    permissions: t.field({ type: SpecPermissions, resolve: (s) => ({ view: true, edit: s.canEdit }) }),
    urls: t.field({
      type: SpecUrls,
      resolve: (s, _args, ctx) => ({
        location: `${ctx.config.apiUrl}/orgs/${s.organizationId}/openapi/${s.slug}`,
        app: `${ctx.config.appUrl}/o/${s.organizationId}/openapi/${s.slug}`,
      }),
    }),
  }),
});
const SpecList = listType('OpenAPISpec', SpecRef);

const organizationPath = builder.args((t) => ({ organizationId: t.string({ required: true, description: 'ID of the organization' }) }));
const specPath = builder.args((t) => ({ ...organizationPath, specSlug: t.string({ required: true, description: 'Slug of the spec' }) }));
const SOURCE = `{ url } (an absolute http(s) URL, at most 2048 characters) or { text } (the document, JSON or YAML, at most ${MAX_SPEC_TEXT_BYTES} bytes)`;

builder.queryFields((t) => ({
  organizationOpenAPISpecs: t.field({
    type: SpecList,
    description: "An organization's OpenAPI specs, oldest first (any member)",
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx) => listSpecs(ctx, organizationId, args),
  }),
  openAPISpec: t.field({
    type: SpecRef,
    description: 'An OpenAPI spec, by slug (any member)',
    args: specPath,
    resolve: (_root, args, ctx) => getSpec(ctx, args.organizationId, args.specSlug),
  }),
}));

builder.mutationFields((t) => ({
  createOpenAPISpec: t.field({
    type: SpecRef,
    description: 'Create an OpenAPI spec, pending until processed (organization admins)',
    args: {
      ...organizationPath,
      slug: t.arg.string({
        required: true,
        description: 'Unique in the organization: 1..100, lower-case words joined by "-"',
        extensions: constrained({ minLength: 1, maxLength: 100, pattern: SLUG_PATTERN.source }),
      }),
      source: t.arg({ type: 'JSON', required: true, description: SOURCE }),
    },
    resolve: (_root, { organizationId, slug, source }, ctx) => createSpec(ctx, organizationId, { slug, source }),
  }),
  putOpenAPISpec: t.field({
    type: SpecRef,
    description: 'Create an OpenAPI spec or give it a new source; pending until processed (organization admins)',
    args: { ...specPath, source: t.arg({ type: 'JSON', required: true, description: SOURCE }) },
    resolve: (_root, { organizationId, specSlug, source }, ctx) => putSpec(ctx, organizationId, specSlug, { source }),
  }),
  deleteOpenAPISpec: t.boolean({
    description: 'Delete an OpenAPI spec and its versions (organization admins)',
    args: specPath,
    resolve: (_root, args, ctx) => deleteSpec(ctx, args.organizationId, args.specSlug),
  }),
}));
