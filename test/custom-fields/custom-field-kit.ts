import { throughDoor, type Door, type DoorResult } from '../support/assertions.ts';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import type { Caller, Harness } from '../support/harness.ts';

/** What the custom-field test files share: selections, paths, both doors' calls, and helpers bound to a harness. */
export const UNKNOWN_ORG = 'unknownOrg0000000001';
export const UNKNOWN_SPACE = 'unknownSpace00000001';
export const UNKNOWN_FIELD = 'unknown-field-000001';
export const FIELD = 'id name title description type placeholder options createdAt updatedAt urls { location }';

/** A response of either door: `body` is the REST body, or the GraphQL root field with nulls dropped. */
export const call = (door: Door, c: Pick<Caller, 'rest'>, rest: [string, string, unknown?], gql: [string, string, Record<string, unknown>]): Promise<DoorResult> =>
  throughDoor(door, c, rest, gql, { dropNulls: true });

export const orgPath = (o: string) => `/v1/orgs/${o}/custom-fields`;
export const fieldPath = (o: string, n: string) => `${orgPath(o)}/${encodeURIComponent(n)}`;
export const spacePath = (s: string) => `/v1/spaces/${s}/custom-fields`;
export const CREATE_VARS = '$o:String!,$name:String!,$type:CustomFieldType!,$title:String,$description:String,$placeholder:String,$options:[String!]';
export const CREATE_ARGS = 'organizationId:$o,name:$name,type:$type,title:$title,description:$description,placeholder:$placeholder,options:$options';
export const UPDATE_VARS = '$o:String!,$n:String!,$title:String,$description:String,$placeholder:String,$options:[String!]';
export const UPDATE_ARGS = 'organizationId:$o,fieldName:$n,title:$title,description:$description,placeholder:$placeholder,options:$options';

export const api = (door: Door) => ({
  list: (c: Pick<Caller, 'rest'>, o: string, query: { page?: string; limit?: number } = {}) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return call(door, c, ['GET', `${orgPath(o)}${qs ? `?${qs}` : ''}`], [
      'organizationCustomFields',
      `query($o:String!,$page:String,$limit:Int){organizationCustomFields(organizationId:$o,page:$page,limit:$limit){count next{page} items{${FIELD}}}}`,
      { o, ...query },
    ]);
  },
  create: (c: Pick<Caller, 'rest'>, o: string, body: Record<string, unknown>) =>
    call(door, c, ['POST', orgPath(o), body], ['createCustomField', `mutation(${CREATE_VARS}){createCustomField(${CREATE_ARGS}){${FIELD}}}`, { o, ...body }]),
  get: (c: Pick<Caller, 'rest'>, o: string, n: string) =>
    call(door, c, ['GET', fieldPath(o, n)], [
      'organizationCustomField',
      `query($o:String!,$n:String!){organizationCustomField(organizationId:$o,fieldName:$n){${FIELD}}}`,
      { o, n },
    ]),
  update: (c: Pick<Caller, 'rest'>, o: string, n: string, body: Record<string, unknown>) =>
    call(door, c, ['PATCH', fieldPath(o, n), body], ['updateCustomField', `mutation(${UPDATE_VARS}){updateCustomField(${UPDATE_ARGS}){${FIELD}}}`, { o, n, ...body }]),
  remove: (c: Pick<Caller, 'rest'>, o: string, n: string) =>
    call(door, c, ['DELETE', fieldPath(o, n)], [
      'deleteCustomField',
      'mutation($o:String!,$n:String!){deleteCustomField(organizationId:$o,fieldName:$n)}',
      { o, n },
    ]),
  values: (c: Pick<Caller, 'rest'>, s: string) =>
    call(door, c, ['GET', spacePath(s)], [
      'spaceCustomFields',
      `query($s:String!){spaceCustomFields(spaceId:$s){customField{${FIELD}} value}}`,
      { s },
    ]),
  setValues: (c: Pick<Caller, 'rest'>, s: string, body: Record<string, unknown>) =>
    call(door, c, ['PATCH', spacePath(s), body], [
      'updateSpaceCustomFields',
      'mutation($s:String!,$values:JSON!){updateSpaceCustomFields(spaceId:$s,values:$values)}',
      { s, ...body },
    ]),
});

export function customFieldKit(h: Harness) {
  async function setup() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read', 'Reader');
    const editor = await buildMember(h, o, 'edit', 'Editor');
    const creator = await buildMember(h, o, 'create', 'Creator');
    const space = await buildSpace(admin, o, { title: 'S' });
    return { admin, o, reader, editor, creator, space };
  }
  
  const fieldRow = (o: string, name: string) => h.db.customField.findUnique({ where: { organizationId_name: { organizationId: o, name } } });
  const storedValues = async (spaceId: string) =>
    Object.fromEntries(
      (await h.db.customFieldValue.findMany({ where: { spaceId }, include: { field: true } })).map((v) => [v.field.name, v.value]),
    );
  return { setup, fieldRow, storedValues };
}
