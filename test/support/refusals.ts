import { describe, expect, it } from 'vitest';
import { buildOrganization } from '../factories.ts';
import { gqlError, masked, restError } from './assertions.ts';
import { anonymous, type Caller, type Harness } from './harness.ts';

/**
 * One operation of a refusal matrix, through both doors, given the IDs it acts on (`{ o, s, … }`, the
 * keys are the test file's own).
 */
export interface RefusalOp<Ids extends Record<string, string>> {
  name: string;
  rest: (ids: Ids) => [method: string, path: string, body?: unknown];
  gql: (ids: Ids) => [query: string, variables: Record<string, unknown>];
  /** Who is refused with 403: a key the matrix's `forbidden` understands. Unset: any member may call it. */
  refuse?: string;
}

export interface RefusalWorld<C, Ids extends Record<string, string>> {
  h: Harness;
  /** A fresh world for each check (an organization with what the operations act on). */
  setup: () => Promise<C>;
  /** The IDs the operations act on in that world. */
  ids: (world: C) => Ids;
  /**
   * The IDs an outsider must not be able to tell from unknown ones, each with an unknown ID of its kind:
   * the outsider's answer for the real IDs must equal, IDs masked, the answer for these.
   */
  unknown: Partial<Ids>;
  /** IDs the outsider calls with instead of the world's (e.g. their own organization as a target). */
  outsiderIds?: (world: C, outsider: { admin: Caller; organizationId: string }) => Partial<Ids>;
  /** The callers refused with 403 for `op.refuse` (each tried through both doors), and IDs to use. */
  forbidden?: (world: C, refuse: string) => Promise<{ callers: Caller[]; ids?: Partial<Ids> }>;
  /** Expects the world to be as `setup` left it; `ids` are those the refused calls used. */
  unchanged: (world: C, ids: Ids) => Promise<void>;
}

/**
 * The cross-cutting refusals of every operation in `ops`, through REST and GraphQL alike:
 * - 401 without a token (REST `{ error }` body; GraphQL status 401 and `UNAUTHENTICATED`);
 * - 404 for a caller from another organization, the same answer (IDs masked) as for unknown IDs;
 * - 403 (`FORBIDDEN`) for the members `forbidden` names, where the operation has `refuse`;
 * and after each, nothing changed (`unchanged`).
 */
export function refusalMatrix<C, Ids extends Record<string, string>>(ops: RefusalOp<Ids>[], world: RefusalWorld<C, Ids>) {
  const { h } = world;
  describe.each(ops)('$name: refusals', (op) => {
    it('401 without a token (REST and GraphQL), nothing changes', async () => {
      const w = await world.setup();
      const ids = world.ids(w);
      const [method, path, body] = op.rest(ids);
      restError(await anonymous(h).rest(method, path, body), 401);
      const [query, variables] = op.gql(ids);
      const res = await anonymous(h).rest('POST', '/graphql', { query, variables });
      expect(res.status, res.text).toBe(401);
      gqlError(res, 'UNAUTHENTICATED');
      await world.unchanged(w, ids);
    });

    it("a caller from another organization gets the same 404 as for unknown IDs, and changes nothing", async () => {
      const w = await world.setup();
      const outsider = await buildOrganization(h, 'Other');
      const ids = { ...world.ids(w), ...world.outsiderIds?.(w, outsider) } as Ids;
      const unknownIds = { ...ids, ...world.unknown } as Ids;
      const hidden = Object.keys(world.unknown);
      const real = hidden.map((k) => ids[k]);
      const fake = hidden.map((k) => unknownIds[k]);
      const rest = (i: Ids) => outsider.admin.rest(...op.rest(i));
      const gql = (i: Ids) => outsider.admin.gql(...op.gql(i));
      const refusedRest = await rest(ids);
      restError(refusedRest, 404);
      expect(masked(refusedRest, real)).toEqual(masked(await rest(unknownIds), fake));
      const refusedGql = await gql(ids);
      gqlError(refusedGql, 'NOT_FOUND');
      expect(masked(refusedGql, real)).toEqual(masked(await gql(unknownIds), fake));
      await world.unchanged(w, ids);
    });

    if (op.refuse) {
      it(`403 for ${op.refuse} (REST and GraphQL), nothing changes`, async () => {
        const w = await world.setup();
        const { callers, ids: overrides } = await world.forbidden!(w, op.refuse!);
        const ids = { ...world.ids(w), ...overrides } as Ids;
        expect(callers.length).toBeGreaterThan(0);
        for (const caller of callers) {
          restError(await caller.rest(...op.rest(ids)), 403);
          gqlError(await caller.gql(...op.gql(ids)), 'FORBIDDEN');
        }
        await world.unchanged(w, ids);
      });
    }
  });
}
