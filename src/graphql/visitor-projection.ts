import {
  defaultFieldResolver,
  getNamedType,
  isObjectType,
  isUnionType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../core/context.ts';
import { BadRequestError, ForbiddenError } from '../core/errors.ts';
import { rootFieldNames } from '../lib/operation-root-fields.ts';

/**
 * What a published site's visitor may see of the schema (issue 36 §1). A visitor is the holder of a
 * site's `apiToken`, or anyone calling the published-content roots that need no token (`publishedPage`,
 * the URL lookup): they read what the reader shows them and nothing more. The projection says, type by
 * type, which fields they see; every field it does not name is hidden — a field added to a type later
 * stays hidden until someone decides a visitor may see it. A shown field is either answered as it is
 * (`true`) or answered with the visitor's own value (a function, which may start from the field's own
 * answer, `own()`): `permissions` are a visitor's, the counts of review work are 0 — fields the shapes
 * require whose real values are the organization's business — and a list holds the rows the visitor's
 * claims open.
 *
 * Enforced in one place for both doors: a GraphQL operation selecting a hidden field is refused (403,
 * naming the fields); a REST route run for a visitor runs its document with the hidden fields left out
 * (`projectedDocument`), so its answer is the visitor's shape. Which root fields a credential may call
 * is the edge's rule (auth/authentication.ts); the projection may still say how a visitor's call of one
 * is answered (a visitor value on `Query`).
 */
export type VisitorField = true | ((parent: any, args: any, ctx: Context, own: () => unknown) => unknown);
export type VisitorProjection = Readonly<Record<string, Readonly<Record<string, VisitorField>>>>;

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/** Whether a selection of `field` on `typeName` is answered to a visitor. */
function visible(projection: VisitorProjection, typeName: string, field: string): boolean {
  if (field.startsWith('__') || typeName.startsWith('__') || ROOT_TYPES.has(typeName)) return true;
  return Boolean(projection[typeName]?.[field]);
}

const outsideByDocument = new WeakMap<DocumentNode, string[]>();

/** The fields (`Type.field`) a document selects that a visitor may not see, in document order. */
export function fieldsOutsideProjection(schema: GraphQLSchema, document: DocumentNode, projection: VisitorProjection): string[] {
  const known = outsideByDocument.get(document);
  if (known) return known;
  const outside = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        if (parent && !visible(projection, parent.name, node.name.value)) outside.add(`${parent.name}.${node.name.value}`);
      },
    }),
  );
  const found = [...outside];
  outsideByDocument.set(document, found);
  return found;
}

const projectedByDocument = new WeakMap<DocumentNode, DocumentNode>();

/**
 * The document with every field a visitor may not see left out (a field whose whole selection went goes
 * too): what a REST route runs for a visitor. Kept per document (SOFA builds one per route).
 */
export function projectedDocument(schema: GraphQLSchema, document: DocumentNode, projection: VisitorProjection): DocumentNode {
  const known = projectedByDocument.get(document);
  if (known) return known;
  const typeInfo = new TypeInfo(schema);
  const projected = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const parent = typeInfo.getParentType();
          return parent && !visible(projection, parent.name, node.name.value) ? null : undefined;
        },
        leave(node) {
          return node.selectionSet && node.selectionSet.selections.length === 0 ? null : undefined;
        },
      },
      InlineFragment: { leave: (node) => (emptySelection(node.selectionSet) ? null : undefined) },
    }),
  );
  projectedByDocument.set(document, projected);
  return projected;
}

const visitorDocuments = new WeakMap<DocumentNode, DocumentNode>();
/** The document a visitor's operation runs under: a copy of the one given, the same for the same. */
function visitorDocumentOf(document: DocumentNode): DocumentNode {
  let copy = visitorDocuments.get(document);
  if (!copy) visitorDocuments.set(document, (copy = { ...document }));
  return copy;
}

const emptySelection = (set: SelectionSetNode) => set.selections.length === 0;

/**
 * The schema a visitor's operations run on: a copy of `schema` whose fields the projection answers with
 * the visitor's own value have that resolver. A copy, not the schema itself: a resolver wrapped on the
 * one schema cost every member's list a third more CPU (graphql-jit then calls a resolver, with its
 * resolve info, for each such field of each row, instead of reading a property).
 */
export function visitorSchemaOf(schema: GraphQLSchema, projection: VisitorProjection): GraphQLSchema {
  // Every name the projection gives must exist, or a rename would silently stop projecting it.
  for (const [typeName, fields] of Object.entries(projection)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`Visitor projection names "${typeName}", which is no object type of the schema`);
    for (const name of Object.keys(fields)) {
      if (!type.getFields()[name]) throw new Error(`Visitor projection names "${typeName}.${name}", which the schema lacks`);
    }
  }
  // mapSchema builds new types (a GraphQLSchema over toConfig() would share, and so change, the members').
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, name, typeName) => {
      const rule = projection[typeName]?.[name];
      if (rule === undefined || rule === true) return field;
      const own = field.resolve ?? defaultFieldResolver;
      return { ...field, resolve: (parent, args, context, info) => rule(parent, args, context as Context, () => own(parent, args, context, info)) };
    },
  });
}

export interface VisitorProjectionOptions {
  projection: VisitorProjection;
  /** The schema visitors' operations run on (visitorSchemaOf). */
  visitorSchema: GraphQLSchema;
  /** Root fields anyone may call without a token: they answer as the site's visitor, whoever calls. */
  publicRootFields: ReadonlySet<string>;
}

/**
 * Whether an operation answers as a site's visitor: a site's `apiToken` reads only as one; anyone else
 * when every root field it selects is a published-content root (`false` when none is). Mixing those with
 * other roots is refused: one operation answers either as a visitor or as the caller.
 */
export function answersAsVisitor(ctx: Pick<Context, 'siteReader'>, roots: readonly string[], publicRootFields: ReadonlySet<string>): boolean {
  if (ctx.siteReader) return true;
  const named = roots.filter((name) => !name.startsWith('__'));
  const published = named.filter((name) => publicRootFields.has(name));
  if (published.length === 0) return false;
  if (published.length < named.length) {
    throw new BadRequestError(`${published.join(', ')} answer as a published site's visitor: ask for them in an operation of their own`);
  }
  return true;
}

/** The projection on the shared execution (both doors): the visitor flag on the context, hidden fields refused. */
export function useVisitorProjection(options: VisitorProjectionOptions): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as unknown as Context;
      let visitor: boolean;
      try {
        visitor = answersAsVisitor(ctx, rootFieldNames(args.document, args.operationName), options.publicRootFields);
      } catch (error) {
        return setResultAndStopExecution({ errors: [error as BadRequestError] });
      }
      if (!visitor) return;
      const outside = fieldsOutsideProjection(args.schema, args.document, options.projection);
      if (outside.length > 0) {
        const named = outside.slice(0, 10).join(', ') + (outside.length > 10 ? ` and ${outside.length - 10} more` : '');
        return setResultAndStopExecution({ errors: [new ForbiddenError(`Not visible to a published site's visitors: ${named}`)] });
      }
      ctx.visitorView = true;
      // Run on the visitor's schema. Compiled operations are kept by their document (graphql-jit): a
      // visitor's runs under a copy of it, so a member sending the same text never gets the visitor's.
      args.schema = options.visitorSchema;
      args.document = visitorDocumentOf(args.document);
    },
  };
}

/** Every object type and field a visitor can reach from `roots` of the query type (for tests and docs). */
export function reachableFromRoots(schema: GraphQLSchema, roots: Iterable<string>): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const queryFields = schema.getQueryType()!.getFields();
  const pending = [...roots].map((root) => getNamedType(queryFields[root].type));
  while (pending.length > 0) {
    const type = pending.pop()!;
    if (reached.has(type.name)) continue;
    if (isUnionType(type)) {
      reached.set(type.name, []);
      pending.push(...type.getTypes());
      continue;
    }
    if (!isObjectType(type)) continue;
    const fields = Object.values(type.getFields());
    reached.set(type.name, fields.map((field) => field.name));
    for (const field of fields) pending.push(getNamedType(field.type));
  }
  return reached;
}
