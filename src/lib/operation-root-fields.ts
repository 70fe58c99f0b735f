import { getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** Names of the root fields an operation selects, through fragments too (`__typename` included). */
export function rootFieldNames(document: DocumentNode, operationName: string | null | undefined): string[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const names: string[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return names;
}
