import { expect } from 'vitest';
import { validateGitBookResponse } from './gitbook-openapi.ts';
import type { HttpResult } from './harness.ts';

/** A REST failure: the status and `{ error: { code, message } }`, the message naming `field` if given. */
export function restError(res: HttpResult, status: number, field?: string): string {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (field) expect(res.body.error.message).toContain(`"${field}`);
  return res.body.error.message;
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

// ---- One test body for both doors ----

export type Door = 'rest' | 'graphql';
export const DOORS: Door[] = ['rest', 'graphql'];

/** The result of an operation through either door: the raw response and the resource it returned. */
export interface DoorResult {
  door: Door;
  raw: HttpResult;
  body: any;
}

const GRAPHQL_CODE: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};

/** Success: the REST status (and an empty body for 204), or a GraphQL result without errors. */
export function expectOk(res: DoorResult, restStatus = 200) {
  if (res.door === 'rest') {
    expect(res.raw.status, res.raw.text).toBe(restStatus);
    if (restStatus === 204) expect(res.raw.text).toBe('');
    return res.body;
  }
  const data = gqlData(res.raw, Object.keys(res.raw.body.data)[0]);
  if (restStatus === 204) expect(data).toBe(true);
  return res.body;
}

/** Failure with this HTTP status (REST) or the matching extensions.code (GraphQL), naming `field` if given. */
export function expectFailure(res: DoorResult, status: number, field?: string) {
  if (res.door === 'rest') return restError(res.raw, status, field);
  return gqlError(res.raw, GRAPHQL_CODE[status], field);
}

/**
 * A REST success with this status whose body validates against GitBook's OpenAPI response schema for
 * `operationId` (tolerating the missing properties in `ignoreMissing`); 204s must be empty.
 */
export function expectGitBookOk(operationId: string, res: HttpResult, status = 200, ignoreMissing: string[] = []) {
  expect(res.status, res.text).toBe(status);
  expect(validateGitBookResponse(operationId, res.status, res.body, { ignoreMissing })).toEqual([]);
  if (status === 204) expect(res.text).toBe('');
  return res.body;
}
