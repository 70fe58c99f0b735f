// What a published site's visitor reads (issue 36 §1, §2): the schema a visitor credential reaches,
// walked field by field against the one visitor projection (src/modules/sites/visitor-projection.ts).
import { getNamedType, isLeafType, isNonNullType, isObjectType, isUnionType, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { reachableFromRoots } from '../../src/graphql/visitor-projection.ts';
import { SITE_READER_FIELDS, VISITOR_PROJECTION } from '../../src/modules/sites/index.ts';
import { publicRootFieldsOf } from '../../src/rest/route-table.ts';
import { restRoutes, schema } from '../../src/schema.ts';
import { buildOrganization } from '../factories.ts';
import { buildAdaptiveSite, type AdaptiveSite } from '../support/adaptive-site.ts';
import { expectOk, restError } from '../support/assertions.ts';
import { validateGitBookResponse } from '../support/gitbook-openapi.ts';
import { anonymous, callerFor, useHarness, type HttpResult } from '../support/harness.ts';
import { leaksOf, walkReads } from '../support/read-walk.ts';

const h = useHarness();
const PUBLIC_ROOTS = publicRootFieldsOf(restRoutes);
const VISITOR_ROOTS = [...SITE_READER_FIELDS, ...PUBLIC_ROOTS];

/** Values for the arguments a walk must give, by name. */
function argumentValues(world: AdaptiveSite): Record<string, string | number> {
  return {
    spaceId: world.guides.id,
    revisionId: world.guides.revision,
    pageId: world.guides.pageId,
    id: world.guides.pageId,
    pagePath: world.guides.pagePath,
    fileId: world.guides.fileId,
    organizationId: world.o,
    siteId: world.site.id,
    siteSpaceId: world.guidesSiteSpaceId,
    query: 'Welcome',
    source: '/old',
    url: `${world.base}/`,
    limit: 5,
  };
}

/** `(a: "x", b: "y")` for the field's required arguments; null when one has no value to give. */
function argumentsOf(field: GraphQLField<unknown, unknown>, values: Record<string, string | number>): string | null {
  const given: string[] = [];
  for (const arg of field.args) {
    const required = arg.type.toString().endsWith('!') && arg.defaultValue === undefined;
    const value = values[arg.name];
    if (value !== undefined && (required || arg.name === 'url' || arg.name === 'limit')) given.push(`${arg.name}: ${JSON.stringify(value)}`);
    else if (required) return null;
  }
  return given.length ? `(${given.join(', ')})` : '';
}

type Keep = (typeName: string, fieldName: string) => boolean;
const inProjection: Keep = (type, field) => Boolean(VISITOR_PROJECTION[type]?.[field]);

/** Every field `keep` admits beneath `type`, to `depth` levels, a type not entered twice on one path. */
function selectionOf(type: GraphQLNamedType, keep: Keep, values: Record<string, string | number>, onPath: Set<string>, depth: number): string {
  if (isUnionType(type)) {
    const members = type.getTypes().map((member) => {
      const inner = selectionOf(member, keep, values, onPath, depth);
      return inner ? `... on ${member.name} ${inner}` : '';
    });
    return `{ __typename ${members.join(' ')} }`;
  }
  if (!isObjectType(type)) return '';
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (!keep(type.name, field.name)) continue;
    const args = argumentsOf(field, values);
    if (args === null) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      parts.push(`${field.name}${args}`);
      continue;
    }
    if (depth === 0 || onPath.has(named.name)) continue;
    const inner = selectionOf(named, keep, values, new Set([...onPath, named.name]), depth - 1);
    if (inner) parts.push(`${field.name}${args} ${inner}`);
  }
  return parts.length ? `{ ${parts.join(' ')} }` : '';
}

/** A query of one root field selecting everything `keep` admits beneath it. */
function rootQuery(root: string, keep: Keep, values: Record<string, string | number>, depth: number): string {
  const field = schema.getQueryType()!.getFields()[root];
  const named = getNamedType(field.type);
  const inner = isLeafType(named) ? '' : selectionOf(named, keep, values, new Set([named.name]), depth);
  return `{ ${root}${argumentsOf(field, values)} ${inner} }`;
}

/** The shortest selection from a visitor root down to `Type.field`, as a query. */
function queryReaching(typeName: string, fieldName: string, values: Record<string, string | number>): { root: string; query: string } | null {
  const queryFields = schema.getQueryType()!.getFields();
  type Step = { type: string; chain: string[]; root: string };
  const queue: Step[] = VISITOR_ROOTS.flatMap((root) => {
    const args = argumentsOf(queryFields[root], values);
    return args === null ? [] : [{ type: getNamedType(queryFields[root].type).name, chain: [`${root}${args}`], root }];
  });
  const seen = new Set<string>();
  while (queue.length > 0) {
    const step = queue.shift()!;
    if (seen.has(step.type)) continue;
    seen.add(step.type);
    const type = schema.getType(step.type)!;
    if (isUnionType(type)) {
      for (const member of type.getTypes()) queue.push({ ...step, type: member.name, chain: [...step.chain.slice(0, -1), `${step.chain.at(-1)} { ... on ${member.name}`], root: step.root });
      continue;
    }
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const args = argumentsOf(field, values);
      if (args === null) continue;
      const named = getNamedType(field.type);
      if (step.type === typeName && field.name === fieldName) {
        const leaf = isLeafType(named) ? `${field.name}${args}` : `${field.name}${args} { __typename }`;
        const chain = [...step.chain, leaf];
        const opened = chain.slice(0, -1).join(' { ');
        const closing = chain.slice(0, -1).reduce((text, link) => text + (link.includes('{ ... on') ? ' } }' : ' }'), '');
        return { root: step.root, query: `{ ${opened} { ${leaf}${closing} }` };
      }
      if (!isLeafType(named)) queue.push({ type: named.name, chain: [...step.chain, `${field.name}${args}`], root: step.root });
    }
  }
  return null;
}

/** Fails with where a secret shows, if one does. */
function expectNoSecrets(world: AdaptiveSite, where: string, text: string) {
  for (const secret of world.secrets) expect(text.includes(secret), `${where} shows "${secret}": ${text.slice(0, 400)}`).toBe(false);
  expect(text, where).not.toMatch(/"(email|mergedFrom|createdBy|mergedBy|condition|postedBy|commentList|changeRequest)"/);
}

describe('the visitor projection', () => {
  it('names only fields of the schema and nothing of the organization: no user, e-mail, change request, comment, review, member or permission type', () => {
    const reached = reachableFromRoots(schema, VISITOR_ROOTS);
    for (const [type, fields] of Object.entries(VISITOR_PROJECTION)) {
      if (type === 'Query') {
        // Roots answered the visitor's way are roots a visitor credential may call.
        for (const root of Object.keys(fields)) expect(VISITOR_ROOTS, root).toContain(root);
        continue;
      }
      expect(reached.has(type), `${type} is no type a visitor reaches`).toBe(true);
      expect(type).not.toMatch(/^(User|ChangeRequest|Comment|Review|Member|Team|Organization|Invite)/);
      for (const field of Object.keys(fields)) expect(field).not.toMatch(/^(email|createdBy|mergedBy|mergedFrom|postedBy|condition|members|reviewers)$/);
      // A hidden field may be absent from an answer: REST answers keep their documented shape without it.
      const required = Object.values((schema.getType(type) as GraphQLObjectType).getFields()).filter((field) => isNonNullType(field.type));
      for (const field of required) expect(fields[field.name], `${type}.${field.name} is required: shown, or answered with the visitor's value`).toBeTruthy();
    }
  });

  it('every field a visitor credential reaches outside the projection is refused, naming it (apiToken and no token)', { timeout: 120_000 }, async () => {
    const world = await buildAdaptiveSite(h);
    const values = argumentValues(world);
    const visitor = callerFor(h, world.visitorToken);
    const reached = reachableFromRoots(schema, VISITOR_ROOTS);
    const hidden: string[] = [];
    for (const [type, fields] of reached) for (const field of fields) if (!VISITOR_PROJECTION[type]?.[field]) hidden.push(`${type}.${field}`);
    // Review data hangs off published content (a merge revision's change request): the walk must get there.
    expect(hidden).toEqual(expect.arrayContaining(['Revision.mergedFrom', 'ChangeRequest.subject', 'User.email', 'Comment.body', 'SiteSection.condition', 'SiteSpace.condition']));
    const unreached: string[] = [];
    for (const coordinate of hidden) {
      const [type, field] = coordinate.split('.');
      const reaching = queryReaching(type, field, values);
      if (!reaching) {
        unreached.push(coordinate);
        continue;
      }
      const caller = SITE_READER_FIELDS.has(reaching.root) ? visitor : anonymous(h);
      const res = await caller.gql(reaching.query);
      expect(res.body?.errors?.[0]?.extensions?.code, `${coordinate}: ${reaching.query} → ${res.text}`).toBe('FORBIDDEN');
      expect(res.body.errors[0].message, coordinate).toContain(coordinate);
      expect(res.body.data ?? null, coordinate).toBeNull();
    }
    expect(unreached).toEqual([]);
  });

  it('everything in the projection, through every visitor root and both doors, shows nothing of the organization', { timeout: 120_000 }, async () => {
    const world = await buildAdaptiveSite(h);
    const values = argumentValues(world);
    const visitor = callerFor(h, world.visitorToken);
    for (const root of VISITOR_ROOTS) {
      const caller = SITE_READER_FIELDS.has(root) ? visitor : anonymous(h);
      // As deep as the operation limits let one query go (nested lists multiply the items it may return).
      let res = await caller.gql(rootQuery(root, inProjection, values, 7));
      for (let depth = 6; depth > 2 && /list items|Cost limit/.test(res.body.errors?.[0]?.message ?? ''); depth--) res = await caller.gql(rootQuery(root, inProjection, values, depth));
      expect(res.body.errors, `${root}: ${res.text.slice(0, 600)}`).toBeUndefined();
      expect(res.body.data[root], root).toBeTruthy();
      expectNoSecrets(world, `GraphQL ${root}`, res.text);
    }
    // The REST routes of the same roots, as GitBook's renderer calls them.
    const paramValues = { ...values };
    let routes = 0;
    for (const [key, route] of Object.entries(restRoutes)) {
      const field = key.split('.')[1];
      if (route.method !== 'GET' || !(SITE_READER_FIELDS.has(field) || PUBLIC_ROOTS.has(field))) continue;
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(paramValues[name] ?? 'missing')));
      const query = field === 'siteSearch' ? '?query=Welcome' : field === 'siteRedirectBySource' ? '?source=%2Fold' : PUBLIC_ROOTS.has(field) ? `?url=${encodeURIComponent(String(values.url))}` : '';
      const res = SITE_READER_FIELDS.has(field) ? await visitor.rest('GET', `/v1${path}${query}`) : await anonymous(h).rest('GET', `/v1${path}${query}`);
      expect(res.status, `${key} GET ${path}${query}: ${res.text.slice(0, 300)}`).toBe(200);
      expectNoSecrets(world, `REST ${key}`, res.text);
      if (route.operationId) {
        expect(validateGitBookResponse(route.operationId, 200, res.body, { ignoreMissing: ['mergedFrom', 'MarkdownDocument.markdown'] }), key).toEqual([]);
      }
      routes++;
    }
    expect(routes).toBeGreaterThanOrEqual(SITE_READER_FIELDS.size);
  });

  it("a visitor's own values: read-only permissions, no review work, the site spaces their claims open", async () => {
    const world = await buildAdaptiveSite(h);
    const visitor = callerFor(h, world.visitorToken);
    const res = await visitor.gql(`{ publishedSite(organizationId: "${world.o}", siteId: "${world.site.id}") {
      site { siteSpaces permissions { view admin edit } features { id } }
      structure { structure { id siteSpaces { id space { id permissions { view access edit admin merge } comments changeRequests changeRequestsOpen mergeRules defaultLevel } } } }
    } }`);
    expect(res.body.errors).toBeUndefined();
    const { site, structure } = res.body.data.publishedSite;
    expect(site).toEqual({ siteSpaces: 1, permissions: { view: true, admin: false, edit: false }, features: [] });
    expect(structure.structure).toHaveLength(1);
    const [siteSpace] = structure.structure[0].siteSpaces;
    expect(siteSpace.space).toEqual({
      id: world.guides.id,
      permissions: { view: true, access: false, edit: false, admin: false, merge: false },
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      mergeRules: { type: 'inherit' },
      defaultLevel: 'read',
    });
    // The organization's admin reading the same site sees its real values.
    const member = await world.admin.gql(`{ publishedSite(organizationId: "${world.o}", siteId: "${world.site.id}") { site { siteSpaces permissions { admin } } structure { structure { id } } } }`);
    expect(member.body.data.publishedSite.site).toEqual({ siteSpaces: 4, permissions: { admin: true } });
    expect(member.body.data.publishedSite.structure.structure).toHaveLength(3);
  });

  it("the same operation text answers each caller their own values, whichever came first (compiled queries are not shared)", async () => {
    const world = await buildAdaptiveSite(h);
    const visitor = callerFor(h, world.visitorToken);
    const same = `query Same { space(spaceId: "${world.guides.id}") { id permissions { view edit admin } } }`;
    const asVisitor = { id: world.guides.id, permissions: { view: true, edit: false, admin: false } };
    const asAdmin = { id: world.guides.id, permissions: { view: true, edit: true, admin: true } };
    for (const [caller, expected] of [[visitor, asVisitor], [world.admin, asAdmin], [visitor, asVisitor], [world.admin, asAdmin]] as const) {
      const res = await caller.gql(same);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.space).toEqual(expected);
    }
  });

  it('a member may not mix published-content roots with their own: one operation answers as one caller', async () => {
    const world = await buildAdaptiveSite(h);
    const res = await world.admin.gql(`{ user { id } publishedContentByUrl(url: "${world.base}/") }`);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(res.body.errors[0].message).toContain('publishedContentByUrl');
  });
});

describe("an adaptive site's management routes are its organization's (issue 36 §2)", () => {
  it('an outsider, published or not, learns nothing: 404 on sections, site spaces, structure and the published view', async () => {
    const world = await buildAdaptiveSite(h);
    const outsider = (await buildOrganization(h, 'Elsewhere')).admin;
    const path = `/v1/orgs/${world.o}/sites/${world.site.id}`;
    for (const route of ['/sections', '/site-spaces', '/structure', '/published', '/section-groups']) {
      const res = await outsider.rest('GET', `${path}${route}`);
      restError(res, 404);
      expectNoSecrets(world, `outsider ${route}`, res.text);
    }
    const graph = await outsider.gql(`{ siteStructure(organizationId: "${world.o}", siteId: "${world.site.id}") { type } }`);
    expect(graph.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // The published API shows the outsider what it shows anyone: the default section alone.
    const lookup = expectOk(await outsider.rest('POST', '/v1/urls/published', { url: `${world.base}/` }));
    expect(lookup.siteSection).toBeDefined();
    // The organization's members still manage it whole.
    expect(expectOk(await world.admin.rest('GET', `${path}/sections`)).items).toHaveLength(3);
    expect(expectOk(await world.writer.rest('GET', `${path}/structure`)).structure).toHaveLength(3);
  });

  it("the apiToken's structure: the group holding only a hidden section and the hidden variant are not there", async () => {
    const world = await buildAdaptiveSite(h);
    const visitor = callerFor(h, world.visitorToken);
    const structure: HttpResult = await visitor.rest('GET', `/v1/orgs/${world.o}/sites/${world.site.id}/structure`);
    expect(structure.status, structure.text).toBe(200);
    expect(structure.body.structure).toHaveLength(1);
    expect(structure.body.structure[0].siteSpaces.map((s: { id: string }) => s.id)).toEqual([world.guidesSiteSpaceId]);
    expectNoSecrets(world, 'structure', structure.text);
  });
});

describe('every read route, as a visitor, an outsider and an anonymous caller of a published adaptive site', () => {
  it('answers nothing the reader would not show them; the apiToken opens its own routes only', { timeout: 120_000 }, async () => {
    const world = await buildAdaptiveSite(h);
    const ids = {
      organizationId: world.o,
      siteId: world.site.id,
      spaceId: world.guides.id,
      revisionId: world.guides.revision,
      pageId: world.guides.pageId,
      fileId: world.guides.fileId,
      pagePath: world.guides.pagePath,
      siteSpaceId: world.guidesSiteSpaceId,
      publishedUrl: `${world.base}/`,
    };
    const outsider = (await buildOrganization(h, 'Outsider')).admin;
    const visitor = callerFor(h, world.visitorToken);
    for (const [who, caller] of [['visitor', visitor], ['outsider', outsider], ['anonymous', anonymous(h)]] as const) {
      const answers = await walkReads(caller, ids, 'Welcome');
      expect(leaksOf(answers, world.secrets), who).toEqual([]);
      expect(answers.filter((a) => a.status >= 500).map((a) => `${a.url} → ${a.status}`), who).toEqual([]);
      const opened = answers.filter((a) => a.status < 300).map((a) => a.path);
      if (who === 'visitor') {
        expect(opened.length).toBeGreaterThanOrEqual(SITE_READER_FIELDS.size - 1);
        for (const a of answers.filter((x) => x.status < 300)) {
          const field = Object.entries(restRoutes).find(([, route]) => route.path === a.path && a.url.startsWith('/v1'))?.[0].split('.')[1];
          expect(SITE_READER_FIELDS.has(field!) || PUBLIC_ROOTS.has(field!), a.path).toBe(true);
        }
      } else {
        // Nothing of the organization opens for them but the published API anyone may call.
        expect(opened.filter((path) => path.includes('{organizationId}') || path.includes('{spaceId}')), who).toEqual([]);
      }
    }
  });
});
