import type { PageEntry, RevisionContent } from '../content/index.ts';
import { listedReadable, type VisitorNavigation } from '../published/index.ts';
import { variantPath } from '../sites/index.ts';
import type { ReaderLink, SectionTab, TreeItem, Variant } from './layout/site-page-props.ts';

/**
 * The reader's navigation, drawn from what the URL lookup let this visitor see (sections, site spaces)
 * and the variant's page tree: header tabs, the variant switcher, the sidebar, breadcrumbs and
 * previous / next. Every href is path-absolute and final.
 */

/** A page path as URL segments (each percent-encoded). */
export const encodePath = (path: string) => path.split('/').filter(Boolean).map(encodeURIComponent).join('/');

/** The base path of a section (its default variant's): the site's for the default section. */
export function sectionBase(siteBasePath: string, section: { path: string; isDefault: boolean } | null): string {
  return !section || section.isDefault ? siteBasePath : `${siteBasePath}${encodeURIComponent(section.path)}/`;
}

/** The base path of a site space (variant): where GitBook puts it (sites' `variantPath`: `/guides/fr/` for a variant of the default section). */
export function variantBase(siteBasePath: string, section: { path: string; isDefault: boolean } | null, siteSpace: { path: string; isDefault: boolean }): string {
  return `${siteBasePath}${variantPath(section, siteSpace)}`;
}

/** Header tabs: sections in the site's order, consecutive sections of one group as that group's menu. */
export function sectionTabs(navigation: VisitorNavigation, siteBasePath: string): SectionTab[] {
  if (navigation.sections.length < 2) return [];
  const groups = new Map(navigation.sectionGroups.map((g) => [g.id, g]));
  const tabs: SectionTab[] = [];
  let lastGroupId: string | null = null;
  for (const section of navigation.sections) {
    const entry = { title: section.title, href: sectionBase(siteBasePath, section), icon: section.icon, current: section.id === navigation.section?.id };
    const group = section.sectionGroupId ? groups.get(section.sectionGroupId) : undefined;
    const last = tabs[tabs.length - 1];
    if (!group) tabs.push({ kind: 'section', ...entry });
    else if (last?.kind === 'group' && lastGroupId === group.id) {
      last.sections.push(entry);
      last.current ||= entry.current;
    } else tabs.push({ kind: 'group', title: group.title, current: entry.current, sections: [entry] });
    lastGroupId = group?.id ?? null;
  }
  return tabs;
}

/** The current section's variants; each links to the same page path when that variant has it. */
export function variantsOf(
  navigation: VisitorNavigation,
  siteBasePath: string,
  pagePath: string,
  contents: Map<string, RevisionContent | null>,
): Variant[] {
  const sectionId = navigation.section?.id ?? null;
  const variants = navigation.siteSpaces.filter((s) => s.sectionId === sectionId);
  if (variants.length < 2) return [];
  return variants.map((siteSpace) => {
    const base = variantBase(siteBasePath, navigation.section, siteSpace);
    const content = contents.get(siteSpace.space.revisionId!);
    const same = pagePath && content?.pageAtPath(pagePath);
    return { title: siteSpace.title ?? siteSpace.space.title, href: same ? `${base}${encodePath(pagePath)}` : base, current: siteSpace.id === navigation.siteSpace.id, lang: null };
  });
}

/**
 * The sidebar: every listed page at the top, and below each page only when it is an ancestor of the
 * current page or the current page itself, or holds few pages — so a 5,000-page space draws what a
 * reader can see, not 5,000 links. Hidden pages are left out (their URL still works).
 */
export function sidebarTree(content: RevisionContent, current: PageEntry | null, base: string): TreeItem[] {
  const open = new Set<string>();
  for (let id = current?.id ?? null; id; id = content.page(id)?.parentId ?? null) open.add(id);
  const tree = content.tree();
  const items = (parentId: string | null, depth: number): TreeItem[] => {
    const out: TreeItem[] = [];
    for (const id of content.children(parentId)) {
      const page = tree.byId.get(id)?.page;
      if (!page || page.hidden) continue;
      const expanded = open.has(page.id);
      // Groups always show their pages (they have no page of their own to go to); other pages when open.
      const showChildren = page.type === 'group' || expanded || (depth === 0 && page.descendants <= 12);
      out.push({
        kind: page.type === 'group' ? 'group' : page.type === 'link' ? 'link' : 'document',
        title: page.title,
        href: page.type === 'group' || page.type === 'link' ? undefined : `${base}${encodePath(page.path)}`,
        emoji: page.emoji,
        icon: page.icon,
        current: page.id === current?.id,
        expanded,
        children: showChildren && depth < 20 ? items(page.id, depth + 1) : [],
      });
    }
    return out;
  };
  return items(null, 0);
}

/** The current page's ancestors, outermost first (groups link to their first page). */
export function breadcrumbsOf(content: RevisionContent, current: PageEntry, base: string): ReaderLink[] {
  const trail: ReaderLink[] = [];
  for (let id = current.parentId; id; ) {
    const page = content.page(id);
    if (!page) break;
    trail.unshift({ title: page.title, href: `${base}${encodePath(page.path)}` });
    id = page.parentId;
  }
  return trail;
}

/** The readable, listed pages before and after the current one, in reading (tree) order. */
export function previousNext(content: RevisionContent, current: PageEntry, base: string): { previous: ReaderLink | null; next: ReaderLink | null } {
  // By position, so that a hidden page (reachable, not listed) has the listed pages around it as neighbours.
  const at = content.pages.positionOf(current.id);
  let previous: PageEntry | null = null;
  for (const page of listedReadable(content.pages.entries())) {
    const position = content.pages.positionOf(page.id);
    if (position < at) previous = page;
    else if (position > at) return { previous: previous && link(previous, base), next: link(page, base) };
  }
  return { previous: previous && link(previous, base), next: null };
}

const link = (page: PageEntry, base: string): ReaderLink => ({ title: page.title, href: `${base}${encodePath(page.path)}` });

