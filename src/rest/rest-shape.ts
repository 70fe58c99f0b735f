import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isUnionType,
  Kind,
  type GraphQLObjectType,
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
  const record = value as Record<string, unknown>;
  for (const step of stepsOf(named, selectionSet)) {
    const field = record[step.key];
    if (field === null) {
      // Undefined, not deleted: JSON leaves it out all the same, and the object keeps its shape (a
      // delete turns it into a slower dictionary, to build and to serialize).
      if (!step.restNull) record[step.key] = undefined;
    } else if (field instanceof RawJson) {
      record[step.key] = rawJson.take(field);
    } else if (step.selectionSet) {
      walk(field, step.type, step.selectionSet, rawJson);
    }
  }
}

/** A selected field of an object type, as the walk needs it. */
interface Step {
  key: string;
  restNull: boolean;
  type: GraphQLOutputType;
  selectionSet: SelectionSetNode | undefined;
}

/**
 * The fields a selection set selects on an object type (inline fragments' included), worked out once:
 * a route's operation is built once (SOFA keeps it), and a list of 100 records walks it 100 times.
 */
const plans = new WeakMap<SelectionSetNode, Map<GraphQLObjectType, Step[]>>();

function stepsOf(type: GraphQLObjectType, selectionSet: SelectionSetNode): Step[] {
  let byType = plans.get(selectionSet);
  if (!byType) plans.set(selectionSet, (byType = new Map()));
  let steps = byType.get(type);
  if (!steps) byType.set(type, (steps = collectSteps(type, selectionSet, [])));
  return steps;
}

function collectSteps(type: GraphQLObjectType, selectionSet: SelectionSetNode, steps: Step[]): Step[] {
  const fields = type.getFields();
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectSteps(type, selection.selectionSet, steps);
      continue;
    }
    if (selection.kind !== Kind.FIELD) continue;
    const field = fields[selection.name.value];
    if (!field) continue;
    steps.push({ key: selection.alias?.value ?? selection.name.value, restNull: field.extensions?.restNull === true, type: field.type, selectionSet: selection.selectionSet });
  }
  return steps;
}
