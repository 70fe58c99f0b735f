import { getNamedType, isObjectType, type GraphQLField, type GraphQLNamedType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';

type Path = GraphQLResolveInfo['path'];

/**
 * Response paths with graphql-js's identity, under graphql-jit.
 *
 * Pothos' Prisma plugin remembers what a list query already loaded for the fields beneath it by
 * keying on `info.path` objects, and finds it again by walking `path.prev` from a nested field:
 * that works because graphql-js builds each link of a response path once and shares it with every
 * field beneath it. graphql-jit (which executes our operations, see app.ts) writes a fresh path
 * literal for every resolver call, so a relation two levels down (`TeamMember.member.user`) would
 * no longer find what its list loaded and would load it again, one statement more per request.
 *
 * Each resolver is therefore handed the canonical path: the same object for the same (parent link,
 * key), per request. The links are held by the request's context (and by one another) weakly, so
 * they go with the request.
 */
const rootLinks = new WeakMap<object, Map<string | number, Path>>();
const childLinks = new WeakMap<Path, Map<string | number, Path>>();

function canonical(context: object, path: Path): Path {
  const parent = path.prev ? canonical(context, path.prev) : undefined;
  const owner = parent ? childLinks : rootLinks;
  const ownerKey = parent ?? context;
  let links = owner.get(ownerKey as Path & object);
  if (!links) {
    links = new Map();
    owner.set(ownerKey as Path & object, links);
  }
  let link = links.get(path.key);
  if (!link) {
    link = path.prev === parent ? path : { prev: parent, key: path.key, typename: path.typename };
    links.set(path.key, link);
  }
  return link;
}

/** Fields the Prisma plugin wraps: they record or look up what was loaded, by path. */
const tracksLoads = (field: GraphQLField<unknown, unknown>) =>
  Object.keys(field.extensions ?? {}).some((key) => key.startsWith('pothosPrisma'));

/**
 * Only the resolvers whose calls can record or look up loads get the canonical path (canonicalising
 * costs a few map lookups per call): fields the Prisma plugin wraps, and fields whose value holds
 * such fields (root and list fields that plan a page's query with `queryFromInfo`). A nested type
 * like `SpaceUrls` or `SpacePermissions` needs none.
 */
export function withStablePaths(schema: GraphQLSchema): GraphQLSchema {
  const holdsTracked = new Map<string, boolean>();
  const typeHoldsTracked = (type: GraphQLNamedType): boolean => {
    if (!isObjectType(type)) return false;
    const known = holdsTracked.get(type.name);
    if (known !== undefined) return known;
    holdsTracked.set(type.name, false); // a cycle adds nothing the other fields do not
    const answer = Object.values(type.getFields()).some((field) => (field.resolve && tracksLoads(field)) || typeHoldsTracked(getNamedType(field.type)));
    holdsTracked.set(type.name, answer);
    return answer;
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || !(tracksLoads(field) || typeHoldsTracked(getNamedType(field.type)))) continue;
      field.resolve = (parent, args, context, info) => {
        // graphql-jit's info is a fresh object per call; graphql-js's paths are canonical already.
        if (context && typeof context === 'object') (info as { path: Path }).path = canonical(context, info.path);
        return resolve(parent, args, context, info);
      };
    }
  }
  return schema;
}
