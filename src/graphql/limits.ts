import type { Context } from '../core/context.ts';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestLimits } from '../config.ts';
import { nestingDepth } from '../lib/body.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../core/pagination.ts';

/**
 * Limits on what one GraphQL request may ask for, so that no single request can hold the server:
 * - before parsing: the document's tokens, and how deeply the document and the variables nest
 *   (graphql-js parses and coerces recursively: a few thousand levels overflow the stack), checked
 *   without recursion;
 * - graphql-armor: depth, aliases, directives and static cost (validation);
 * - before executing: the number of list items the operation may return, from the `limit` of every
 *   list on each path (as GitHub's API bounds its "nodes"): 100 organizations × 1000 members each is
 *   100,000 items however few fields are asked for.
 * Every refusal is a 400 with `extensions.code` BAD_REQUEST and a message naming the limit.
 */
export function useGraphqlLimits(limits: RequestLimits): Plugin[] {
  const g = limits.graphql;
  const refuse = [(_ctx: unknown, error: GraphQLError) => markBadRequest(error)];
  return [
    usePreParseLimits(limits.maxInputDepth, g.maxDepth, g.maxTokens),
    EnvelopArmorPlugin({
      maxTokens: { enabled: false }, // counted before parsing: see usePreParseLimits
      maxDepth: { n: g.maxDepth, ignoreIntrospection: true, flattenFragments: true, onReject: refuse },
      maxAliases: { n: g.maxAliases, onReject: refuse },
      maxDirectives: { n: g.maxDirectives, onReject: refuse },
      costLimit: { maxCost: g.maxCost, ignoreIntrospection: true, onReject: refuse },
      // The schema is public (introspection and GraphiQL): suggestions reveal nothing and help.
      blockFieldSuggestion: { enabled: false },
    }) as Plugin,
    useListItemLimit(g.maxListItems),
  ] as Plugin[];
}

function badRequest(message: string): GraphQLError {
  return markBadRequest(new GraphQLError(message));
}

function markBadRequest(error: GraphQLError): GraphQLError {
  Object.assign(error.extensions as Record<string, unknown>, { code: 'BAD_REQUEST', http: { status: 400 } });
  return error;
}

/**
 * Brackets, braces and parentheses a document may nest. A selection adds one level per field and a
 * literal one per list or object, so legitimate documents stay within depth + input depth; the bound
 * exists because the parser recurses once per level.
 */
export function maxDocumentNesting(maxInputDepth: number, maxDepth: number): number {
  return maxInputDepth + 2 * maxDepth + 8;
}

/**
 * Tokens and bracket nesting of a GraphQL document, read with graphql-js's own lexer (which is
 * iterative), stopping as soon as either limit is passed.
 */
export function scanDocument(query: string, limits: { maxTokens: number; maxNesting: number }): { tokens: number; nesting: number } {
  const lexer = new Lexer(new Source(query));
  let tokens = 0;
  let depth = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > limits.maxTokens) break;
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
        nesting = Math.max(nesting, ++depth);
        if (nesting > limits.maxNesting) break;
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        depth--;
      }
    }
  } catch {
    // A syntax error: the parser reports it properly.
  }
  return { tokens, nesting };
}

/**
 * Checked on the raw parameters, before graphql-js parses the document or coerces the variables (both
 * recursive). The token count is taken here rather than by graphql-armor's parser hook so that it is
 * answered 400 like every other limit (Yoga answers parse errors 200 under `application/json`).
 */
function usePreParseLimits(maxInputDepth: number, maxDepth: number, maxTokens: number): Plugin {
  const maxNesting = maxDocumentNesting(maxInputDepth, maxDepth);
  return {
    onParams({ params }) {
      if (typeof params.query === 'string') {
        const scan = scanDocument(params.query, { maxTokens, maxNesting });
        if (scan.tokens > maxTokens) throw badRequest(`The document has more than ${maxTokens} tokens`);
        if (scan.nesting > maxNesting) throw badRequest(`The document nests more than ${maxNesting} levels of brackets`);
      }
      if (params.variables && nestingDepth(params.variables, maxInputDepth + 1) > maxInputDepth + 1) {
        throw badRequest(`Variables nest more than ${maxInputDepth} levels`);
      }
    },
  };
}

function useListItemLimit(maxListItems: number): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      // REST operations are generated by SOFA from the documented shapes: their callers choose only
      // a `limit` (≤ 1000) of one list, never nested selections.
      if ((args.contextValue as unknown as Context).door === 'rest') return;
      const items = estimateListItems(args.document, args.schema.getQueryType(), args.schema.getMutationType(), args.operationName, args.variableValues ?? {});
      if (items > maxListItems) {
        setResultAndStopExecution({
          errors: [badRequest(`The operation may return ${items} list items, more than the limit of ${maxListItems}: ask for smaller pages (limit) or fewer lists`)],
        });
      }
    },
  };
}

/**
 * Lists whose length no `limit` argument states (a few links' locations, an organization's custom
 * fields) are assumed this long, unless the field declares its bound in `extensions.listSize`.
 *
 * A field marked `extensions.listTree` is a level of a tree (`ContentPage.pages`): nested in itself, it
 * lists the next level of the same tree, whose nodes each sit at one level only. Such a nested level
 * counts as many items as the level above instead of that many times the estimate, so a tree selected
 * five levels deep costs five levels, not ten to the fifth.
 */
const UNPAGED_LIST_ESTIMATE = 10;

/**
 * How many list items an operation may return at most: each paged list (a field with a `limit`
 * argument) contributes its page size times the items of the lists above it; any other list of objects
 * counts as UNPAGED_LIST_ESTIMATE. Validation has already bounded the depth and refused fragment cycles.
 */
export function estimateListItems(
  document: DocumentNode,
  queryType: GraphQLObjectType | null | undefined,
  mutationType: GraphQLObjectType | null | undefined,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = document.definitions.find(
    (d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return 0;
  const root = operation.operation === 'mutation' ? mutationType : operation.operation === 'query' ? queryType : null;
  if (!root) return 0;

  const pageSize = (field: FieldNode): number => {
    const arg = field.arguments?.find((a) => a.name.value === 'limit');
    if (!arg) return DEFAULT_LIMIT;
    const value = arg.value.kind === Kind.VARIABLE ? variables[arg.value.name.value] : arg.value.kind === Kind.INT ? Number(arg.value.value) : null;
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 1), MAX_LIMIT) : DEFAULT_LIMIT;
  };

  const walk = (selectionSet: SelectionSetNode, type: GraphQLObjectType, multiplier: number, pagedParent: boolean, inTree = false): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += walk(selection.selectionSet, type, multiplier, pagedParent, inTree);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) total += walk(fragment.selectionSet, type, multiplier, pagedParent, inTree);
        continue;
      }
      const field = type.getFields()[selection.name.value];
      const named = field && getNamedType(field.type);
      if (!field || !selection.selectionSet || !isObjectType(named)) continue;
      let items = multiplier;
      const size = field.args.some((a) => a.name === 'limit') ? pageSize(selection) : null;
      if (size !== null) {
        // A page envelope ({ items, count, next }): its `items` are the page, counted here.
        items = multiplier * size;
        total += items;
      } else if (isListType(getNullableType(field.type)) && !pagedParent) {
        const nestedTreeLevel = inTree && field.extensions?.listTree === true;
        items = nestedTreeLevel ? multiplier : multiplier * ((field.extensions?.listSize as number | undefined) ?? UNPAGED_LIST_ESTIMATE);
        total += items;
      }
      total += walk(selection.selectionSet, named, items, size !== null, field.extensions?.listTree === true);
    }
    return total;
  };
  return walk(operation.selectionSet, root, 1, false);
}
