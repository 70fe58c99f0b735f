import { z } from 'zod';
import { BadRequestError } from '../../core/errors.ts';
import { MAX_PAGE_MARKDOWN } from '../content/index.ts';

/**
 * The body of `POST …/change-requests/{id}/content` (GitBook's `updateChangeRequestContent`): GitBook's
 * `ChangeRequestContentChange*` shapes, checked here so that a bad change answers 400 naming the
 * field (`changes[2].title`) before anything is applied.
 */
export const MAX_CHANGES = 50;
export const MAX_FILES_PER_CHANGE = 20;
export const MAX_TITLE = 256;
export const MAX_DESCRIPTION = 1000;
export const MAX_FILE_BYTES = 1024 * 1024;
export { MAX_PAGE_MARKDOWN };

const pageId = z.string().min(1).max(100);
const title = z.string().min(1).max(MAX_TITLE);
const slug = z
  .string()
  .max(100)
  .regex(/^$|^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and single dashes');
const emoji = z.string().max(50);
/** Markdown, or nothing (`{}`: metadata only). A JSON document body is GitBook's too, but not accepted here. */
const document = z.strictObject({ markdown: z.string().max(MAX_PAGE_MARKDOWN).optional() });
const position = z.number().int().min(0).max(100_000);

const pageFields = {
  title: title.optional(),
  slug: slug.optional(),
  emoji: emoji.optional(),
  /** An icon name (GitBook's Icon); empty removes it. */
  icon: z
    .string()
    .max(50)
    .regex(/^$|^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'an icon name: lower-case letters, digits and dashes')
    .optional(),
  description: z.string().max(MAX_DESCRIPTION).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
};

/**
 * A computed page's source (GitBook's `ComputedContentSourceRevisionOpenAPI`): the page's content is
 * made from the named OpenAPI spec of the organization each time it is read.
 */
export const computedSource = z.strictObject({
  type: z.literal('builtin:openapi'),
  props: z.strictObject({ models: z.boolean().optional(), downloadLink: z.boolean().optional(), grouping: z.enum(['by-tag', 'by-operation']).optional() }).optional(),
  dependencies: z.strictObject({
    spec: z.strictObject({
      ref: z.strictObject({ kind: z.literal('openapi'), spec: z.string().min(1).max(100).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'an OpenAPI spec slug') }),
    }),
  }),
});
export type ComputedSource = z.infer<typeof computedSource>;

/** A document page needs a body (`document.markdown`); a computed page a source and no body. */
const insertPage = z
  .strictObject({
    operation: z.literal('insert_page'),
    ...pageFields,
    type: z.enum(['document', 'computed', 'group']).optional(),
    computed: computedSource.optional(),
    ref: z.string().min(1).max(256).optional(),
    document: document.optional(),
    into: pageId.optional(),
    at: position.optional(),
  })
  .superRefine((change, ctx) => {
    if (change.type === 'group') {
      // GitBook's RevisionPageGroup: a titled heading of the top level holding pages, with no body.
      if (!change.title) ctx.addIssue({ code: 'custom', path: ['title'], message: 'a group needs a title' });
      if (change.document !== undefined) ctx.addIssue({ code: 'custom', path: ['document'], message: 'a group has no body' });
      if (change.computed) ctx.addIssue({ code: 'custom', path: ['computed'], message: 'only a page of type "computed" has a source' });
    } else if (change.type === 'computed') {
      if (!change.computed) ctx.addIssue({ code: 'custom', path: ['computed'], message: 'a computed page needs its source' });
      if (change.document?.markdown !== undefined) ctx.addIssue({ code: 'custom', path: ['document'], message: 'a computed page has no body of its own' });
    } else {
      if (change.computed) ctx.addIssue({ code: 'custom', path: ['computed'], message: 'only a page of type "computed" has a source' });
      if (change.document?.markdown === undefined) ctx.addIssue({ code: 'custom', path: ['document'], message: 'needs "markdown"' });
    }
  });

const updatePage = z.strictObject({
  operation: z.literal('update_page'),
  page: pageId,
  ...pageFields,
  document: document.optional(),
  computed: computedSource.optional(),
  into: pageId.nullable().optional(),
  at: position.optional(),
});

const deletePage = z.strictObject({ operation: z.literal('delete_page'), page: pageId });

const revertPage = z.strictObject({
  operation: z.literal('revert_page'),
  page: pageId,
  revision: z.string().min(1).max(100).optional(),
});

const insertedFile = z.strictObject({
  name: z.string().min(1).max(256),
  ref: z.string().min(1).max(256).optional(),
  contentType: z.string().min(3).max(255).regex(/^[\w.+-]+\/[\w.+-]+$/, 'a media type such as image/png'),
  base64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'standard base64'),
});

const insertFiles = z.strictObject({
  operation: z.literal('insert_files'),
  files: z.array(insertedFile).min(1).max(MAX_FILES_PER_CHANGE),
});

export const contentChange = z.discriminatedUnion('operation', [insertPage, updatePage, deletePage, revertPage, insertFiles]);

/**
 * The changes as JSON Schema (OpenAPI 3.0), made from the definitions above that check them: the OpenAPI
 * document types `changes` with it, so the reference at /docs shows every change type and its fields.
 */
export const contentChangesSchema = z.toJSONSchema(contentChange, { target: 'openapi-3.0', unrepresentable: 'any' }) as Record<string, unknown>;
export type ContentChange = z.infer<typeof contentChange>;
export type InsertPageChange = z.infer<typeof insertPage>;
export type UpdatePageChange = z.infer<typeof updatePage>;
export type InsertFilesChange = z.infer<typeof insertFiles>;

const changesBody = z.array(contentChange).min(1).max(MAX_CHANGES);

/** `changes[1].files[0].name` from zod's path. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : `${name}.${String(key)}`), 'changes');
}

/** Parses the `changes` of a request, or throws a 400 naming the first bad field. */
export function parseChanges(input: unknown): ContentChange[] {
  const parsed = changesBody.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === 'invalid_union' && issue.path.length === 2) {
    throw new BadRequestError(
      `Invalid "${fieldName(issue.path)}.operation": must be insert_page, update_page, delete_page, revert_page or insert_files`,
    );
  }
  if (issue.code === 'too_small' && issue.path.length === 0) throw new BadRequestError(`Invalid "changes": at least one change is required`);
  if (issue.code === 'too_big' && issue.path.length === 0) throw new BadRequestError(`Invalid "changes": at most ${MAX_CHANGES} changes per request`);
  throw new BadRequestError(`Invalid "${fieldName(issue.path)}": ${issue.message}`);
}

/** A 400 about one field of one change. */
export function changeError(index: number, field: string, message: string): BadRequestError {
  return new BadRequestError(`Invalid "changes[${index}]${field ? `.${field}` : ''}": ${message}`);
}
