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
import { RawJson, type RawJsonSlots } from '../lib/raw-json.ts';

/**
 * GraphQL always returns a selected field, as null when it has no value; GitBook's REST API omits
 * absent optional fields instead. This walks the result along the operation's selections and removes
 * null fields, except those marked `restNull` (where null is a value, e.g. `role: null` = guest).
 * A field answering JSON already written as text (`RawJson`) is swapped for a token of `rawJson`, whose
 * text goes back in place once the answer is serialized.
 */
export function omitAbsentFields(data: unknown, operation: OperationDefinitionNode, rootType: GraphQLOutputType, rawJson: RawJsonSlots): unknown {
  walk(data, rootType, operation.selectionSet, rawJson);
  return data;
}

function walk(value: unknown, type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, rawJson: RawJsonSlots): void {
  if (value === null || value === undefined || !selectionSet) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    for (const item of value as unknown[]) walk(item, nullable.ofType, selectionSet, rawJson);
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
      if (member && keys.every((key) => key in record)) return walk(value, member, selection.selectionSet, rawJson);
    }
    return;
  }
  if (!isObjectType(named)) return;
  const fields = named.getFields();
  const record = value as Record<string, unknown>;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      walk(value, named, selection.selectionSet, rawJson);
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    const key = selection.alias?.value ?? selection.name.value;
    const field = fields[selection.name.value];
    if (!field) continue;
    if (record[key] === null) {
      // Undefined, not deleted: JSON leaves it out all the same, and the object keeps its shape (a
      // delete turns it into a slower dictionary, to build and to serialize).
      if (!field.extensions?.restNull) record[key] = undefined;
    } else if (record[key] instanceof RawJson) {
      record[key] = rawJson.take(record[key]);
    } else {
      walk(record[key], field.type, selection.selectionSet, rawJson);
    }
  }
}
