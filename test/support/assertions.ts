import { expect } from 'vitest';
import { validateGitBookResponse } from './gitbook-openapi.ts';
import type { Caller, HttpResult } from './harness.ts';

/** A REST failure: the status and `{ error: { code, message } }`, the message naming `field` if given. */
export function restError(res: HttpResult, status: number, field?: string): string {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (field) expect(res.body.error.message).toContain(`"${field}`);
  return res.body.error.message;
}

/**
 * What GitBook's description requires and this API does not serve (yet), each scoped to the schema it
 * belongs to (`Schema.property`, see gitbook-openapi.ts), so that tolerating them everywhere cannot hide
 * a property the API does serve going missing.
 */
export const NOT_SERVED: string[] = [
  // Permissions of spaces and collections that the API does not compute.
  ...['mergeRules', 'view', 'viewInviteLinks', 'triggerGitSync', 'installIntegration'].flatMap((p) => [`Space.${p}`, `Collection.${p}`]),
  // A member's sites and teams' permissions: GitBook's per-member site list and team permissions are not computed.
  'OrganizationMember.sites',
  'OrganizationMember.permissions',
  'OrganizationTeam.permissions',
  'OrganizationTeamMember.permissions',
  // Organization: merge rules and permissions the API does not compute, billing details that have no
  // meaning here (no payments are taken).
  ...['mergeRules', 'view', 'access', 'ownTeam', 'createOpenAPISpec', 'viewBilling', 'listMembers', 'listTeams', 'listIntegrations',
    'listInstallations', 'installIntegration'].map((p) => `Organization.${p}`),
  ...['canCheckout', 'pricing', 'usageAddons', 'canChangeInterval', 'canUseSAML', 'creditsBundle', 'aiCreditAlertThreshold'].map(
    (p) => `OrganizationBilling.${p}`,
  ),
  // Invite links are never "redundant" (GitBook's flag for links to content the invitee reaches anyway).
  'InviteLinkToOrganization.redundant',
  // A SAML provider that has not been given these omits them.
  'OrganizationSAMLProvider.ssoURL',
  'OrganizationSAMLProvider.entityID',
  'OrganizationSAMLProvider.certificate',
];

/** Expects a REST body to validate against GitBook's response schema of `operationId` (with NOT_SERVED). */
export function expectGitBookShape(operationId: string, status: number, body: unknown) {
  expect(validateGitBookResponse(operationId, status, body, { ignoreMissing: NOT_SERVED })).toEqual([]);
}

/** The data of a successful GraphQL root field. */
export function gqlData(res: HttpResult, field: string) {
  expect(res.body?.errors, res.text).toBeUndefined();
  return res.body.data[field];
}

/** A GraphQL error with this `extensions.code`; BAD_REQUEST also accepts GraphQL document validation errors. */
export function gqlError(res: HttpResult, code: string, field?: string): string {
  const error = res.body?.errors?.[0];
  expect(error, res.text).toBeDefined();
  const got = error.extensions?.code;
  if (code === 'BAD_REQUEST') expect(['BAD_REQUEST', 'GRAPHQL_VALIDATION_FAILED'], res.text).toContain(got);
  else expect(got, res.text).toBe(code);
  if (field) expect(error.message).toContain(field);
  expect(res.body.data ?? null).toBeNull();
  return error.message;
}

/** The response with the given IDs blanked, to compare a refusal with the one for unknown IDs. */
export const masked = (res: HttpResult, ids: string[]) => ({
  status: res.status,
  body: ids.reduce((text, id) => text.split(id).join('<id>'), res.text),
});

// ---- Success: the one assertion ----

export type Door = 'rest' | 'graphql';
export const DOORS: Door[] = ['rest', 'graphql'];

/** The result of an operation through either door: the raw response and the resource it returned. */
export interface DoorResult {
  door: Door;
  raw: HttpResult;
  body: any;
}

const isDoorResult = (res: HttpResult | DoorResult): res is DoorResult => 'door' in res && 'raw' in res;

/**
 * Success, returning the body (REST) or the root field's value (GraphQL through `throughDoor`):
 * - REST: the status is `status`, a 204 has an empty body, and with `operationId` the body validates
 *   against GitBook's response schema of that operation (see NOT_SERVED).
 * - GraphQL: no errors; where REST answers 204 the field is `true`.
 */
export function expectOk(res: HttpResult | DoorResult, status = 200, operationId?: string): any {
  if (isDoorResult(res) && res.door === 'graphql') {
    const data = gqlData(res.raw, Object.keys(res.raw.body?.data ?? {})[0]);
    expect(data, res.raw.text).not.toBeUndefined();
    if (status === 204) expect(data).toBe(true);
    return res.body;
  }
  const raw = isDoorResult(res) ? res.raw : res;
  expect(raw.status, raw.text).toBe(status);
  if (status === 204) expect(raw.text).toBe('');
  if (operationId) expectGitBookShape(operationId, raw.status, status === 204 ? raw.text : raw.body);
  return isDoorResult(res) ? res.body : raw.body;
}

const GRAPHQL_CODE: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};

/** Failure with this HTTP status (REST) or the matching extensions.code (GraphQL), naming `field` if given. */
export function expectFailure(res: DoorResult, status: number, field?: string) {
  if (res.door === 'rest') return restError(res.raw, status, field);
  return gqlError(res.raw, GRAPHQL_CODE[status], field);
}

/** A copy of `value` without its null properties, at any depth (GraphQL's nulls vs REST's omissions). */
export function dropNulls(value: any): any {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
  }
  return value;
}

/**
 * One operation through either door: REST `[method, path, body?]`, or GraphQL `[rootField, query,
 * variables]`. `body` is the REST body, or the root field's value (undefined on errors; with
 * `dropNulls`, its null properties dropped so that it compares with the REST body).
 */
export async function throughDoor(
  door: Door,
  caller: Pick<Caller, 'rest'>,
  rest: [string, string, unknown?],
  gql: [string, string, Record<string, unknown>],
  options: { dropNulls?: boolean } = {},
): Promise<DoorResult> {
  if (door === 'rest') {
    const raw = await caller.rest(...rest);
    return { door, raw, body: raw.body };
  }
  const raw = await caller.rest('POST', '/graphql', { query: gql[1], variables: gql[2] });
  const value = raw.body?.errors ? undefined : raw.body?.data?.[gql[0]];
  return { door, raw, body: options.dropNulls ? dropNulls(value) : value };
}
