import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isUnionType,
  Kind,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * GraphQL always returns a selected field, as null when it has no value; GitBook's REST API omits
 * absent optional fields instead. This walks the result along the operation's selections and removes
 * null fields, except those marked `restNull` (where null is a value, e.g. `role: null` = guest).
 */
export function omitAbsentFields(data: unknown, operation: OperationDefinitionNode, rootType: GraphQLOutputType): unknown {
  walk(data, rootType, operation.selectionSet);
  return data;
}

function walk(value: unknown, type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): void {
  if (value === null || value === undefined || !selectionSet) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    for (const item of value as unknown[]) walk(item, nullable.ofType, selectionSet);
    return;
  }
  const named = getNamedType(type);
  if (isUnionType(named)) {
    // The result names no type (no __typename is selected): the member is the one whose fragment's
    // fields are all there — GraphQL answers every field selected for the matching member, and only those.
    const record = value as Record<string, unknown>;
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.INLINE_FRAGMENT || !selection.typeCondition) continue;
      const member = named.getTypes().find((t) => t.name === selection.typeCondition!.name.value);
      const keys = selection.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.alias?.value ?? s.name.value] : []));
      if (member && keys.every((key) => key in record)) return walk(value, member, selection.selectionSet);
    }
    return;
  }
  if (!isObjectType(named)) return;
  const fields = named.getFields();
  const record = value as Record<string, unknown>;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      walk(value, named, selection.selectionSet);
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    const key = selection.alias?.value ?? selection.name.value;
    const field = fields[selection.name.value];
    if (!field) continue;
    if (record[key] === null) {
      if (!field.extensions?.restNull) delete record[key];
    } else {
      walk(record[key], field.type, selection.selectionSet);
    }
  }
}
