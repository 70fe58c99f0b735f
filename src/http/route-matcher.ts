/**
 * Matches a method and a path against route templates in the documentation's syntax (`/orgs/{organizationId}`:
 * a `{name}` is one non-empty path segment). The one matcher of the edge: the REST table and the HTTP
 * routes of modules are both matched by it (request-classification.ts).
 */
export interface Routed {
  /** The methods the route answers. */
  methods: readonly string[];
  path: string;
  /** The template's last `{name}` takes the rest of the path, slashes included (a page path). */
  restOfPath?: boolean;
}

export type RouteMatch<R> =
  | { kind: 'route'; route: R; params: Record<string, string> }
  /** The path exists, with other methods only. */
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'no-route' };

interface Compiled<R> {
  route: R;
  methods: readonly string[];
  pattern: RegExp;
  names: string[];
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** Template names, in order: `/a/{x}/b/{y}` → ['x', 'y']. */
export function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

export function routeMatcher<R extends Routed>(routes: readonly R[]): (method: string, path: string) => RouteMatch<R> {
  // By segment count: a path is only compared with templates of as many segments (or, for a template
  // whose last parameter takes the rest of the path, at least as many).
  const bySegments = new Map<number, Compiled<R>[]>();
  const restOfPath: (Compiled<R> & { segments: number })[] = [];
  for (const route of routes) {
    let source = escape(route.path).replace(/\{\w+\}/g, '([^/]+)');
    if (route.restOfPath) source = source.replace(/\(\[\^\/\]\+\)$/, '(.+)');
    const compiled = { route, methods: route.methods, pattern: new RegExp(`^${source}$`), names: templateParameters(route.path) };
    const segments = route.path.split('/').length;
    if (route.restOfPath) restOfPath.push({ ...compiled, segments });
    else bySegments.set(segments, [...(bySegments.get(segments) ?? []), compiled]);
  }
  return (method, path) => {
    const candidates: { compiled: Compiled<R>; values: string[] }[] = [];
    const segments = path.split('/').length;
    const sized = bySegments.get(segments) ?? [];
    for (const compiled of restOfPath.length ? [...sized, ...restOfPath.filter((r) => segments >= r.segments)] : sized) {
      const match = compiled.pattern.exec(path);
      if (match) candidates.push({ compiled, values: match.slice(1) });
    }
    const hit = candidates.find((c) => c.compiled.methods.includes(method));
    if (hit) return { kind: 'route', route: hit.compiled.route, params: Object.fromEntries(hit.compiled.names.map((name, i) => [name, hit.values[i]])) };
    if (candidates.length > 0) return { kind: 'method-not-allowed', allowed: [...new Set(candidates.flatMap((c) => c.compiled.methods))] };
    return { kind: 'no-route' };
  };
}
