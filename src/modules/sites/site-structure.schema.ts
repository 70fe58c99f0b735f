import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { SiteStructureItem } from './published-site.schema.ts';
import { sitePath } from './site.schema.ts';
import { STRUCTURE_ITEM_TYPES, sortSiteStructure } from './site-structure-sort.ts';

const StructureItemPointer = builder.inputType('SiteStructureItemPointerInput', {
  description: '{ type: "site-space" | "site-section" | "site-section-group" | "site-external-link", id }',
  fields: (t) => ({
    type: t.string({ required: true, extensions: constrained({ enum: [...STRUCTURE_ITEM_TYPES] }) }),
    id: t.string({ required: true, extensions: constrained({ minLength: 1, maxLength: 64 }) }),
  }),
});
const StructureItemPosition = builder.inputType('SiteStructureItemMovePositionInput', {
  description: 'Before or after a sibling of the item (default: the end of its level)',
  fields: (t) => ({ before: t.field({ type: StructureItemPointer }), after: t.field({ type: StructureItemPointer }) }),
});

builder.mutationFields((t) => ({
  sortSiteStructure: t.field({
    type: SiteStructureItem,
    description:
      "Put a section or section group before or after a sibling, or at the end of its level, keeping its level (edit on the site; GitBook's sortSiteStructure)",
    args: {
      ...sitePath,
      item: t.arg({ type: StructureItemPointer, required: true, description: 'The section or section group to move' }),
      position: t.arg({ type: StructureItemPosition, description: '{ before | after: pointer to a sibling } (default: the end of its level)' }),
    },
    resolve: (_root, { organizationId, siteId, item, position }, ctx) => sortSiteStructure(ctx, organizationId, siteId, { item, position }),
  }),
}));
