import { createRequire } from 'node:module';

/**
 * Page and section icons. GitBook names them as Font Awesome does (`rocket`, `book-open`, `gear`); the
 * free regular and solid sets (`@fortawesome/free-*-svg-icons`) give their shapes, drawn inline as SVG
 * (no font, no request). The regular style first, as GitBook draws icons; solid for the names it lacks.
 * A name neither set has draws nothing. The sets are read on the first icon drawn, not at start-up.
 */
interface IconShape {
  width: number;
  height: number;
  path: string;
}

type IconPack = Record<string, { iconName?: string; icon?: [number, number, string[], string, string | string[]] }>;

let table: Map<string, IconShape> | null = null;

function iconTable(): Map<string, IconShape> {
  if (table) return table;
  const require = createRequire(import.meta.url);
  const shapes = new Map<string, IconShape>();
  // Solid first, then regular over it: a name in both is drawn regular.
  for (const pack of [require('@fortawesome/free-solid-svg-icons') as IconPack, require('@fortawesome/free-regular-svg-icons') as IconPack]) {
    for (const definition of Object.values(pack)) {
      if (!definition?.iconName || !Array.isArray(definition.icon)) continue;
      const [width, height, aliases, , path] = definition.icon;
      const shape = { width, height, path: Array.isArray(path) ? path.join(' ') : path };
      for (const name of [definition.iconName, ...aliases.filter((alias) => typeof alias === 'string')]) shapes.set(name, shape);
    }
  }
  table = shapes;
  return table;
}

/** The shape of an icon name (a `fa-` prefix or a style prefix like `regular:` is ignored), or null. */
export function iconShape(name: string | null | undefined): IconShape | null {
  if (!name || name.length > 80) return null;
  const bare = name.replace(/^(?:fa[srlbd]?[-:]|(?:solid|regular|light|thin|duotone|brands):)/i, '').toLowerCase();
  if (!/^[a-z0-9-]+$/.test(bare)) return null;
  return iconTable().get(bare) ?? null;
}

/** An icon drawn in the text's colour (decorative: the title beside it says what it is). */
export function PageIcon({ name, class: className }: { name?: string | null; class: string }) {
  const shape = iconShape(name);
  if (!shape) return null;
  return (
    <svg class={className} viewBox={`0 0 ${shape.width} ${shape.height}`} width="1em" height="1em" aria-hidden="true" focusable="false">
      <path d={shape.path} fill="currentColor" />
    </svg>
  );
}
