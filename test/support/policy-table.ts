import { expect, it } from 'vitest';
import { authorize, can, type Policy } from '../../src/core/authorization.ts';
import { AppError } from '../../src/core/errors.ts';
import type { Role } from '../../src/generated/prisma/client.ts';
import type { OrganizationActor } from '../../src/modules/organizations/organization.policy.ts';

/** What `authorize` answers: allowed, or the status it refuses with. */
export type Outcome = 'allowed' | 403 | 404;

export function outcomeOf<A extends string, Actor, Rec>(policy: Policy<A, Actor, Rec>, actor: Actor, action: A, record: Rec): Outcome {
  try {
    authorize(policy, actor, action, record);
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 404)) return error.status;
    throw error;
  }
}

/**
 * One test per row of a policy table: `[who, action, on what, outcome]`, the names looked up in
 * `actors` and `records`. Each row also checks that `can` agrees with `authorize`.
 */
export function policyTable<A extends string, Actor, Rec>(
  policy: Policy<A, Actor, Rec>,
  actors: Record<string, Actor>,
  records: Record<string, Rec>,
  rows: readonly (readonly [string, A, string, Outcome])[],
) {
  for (const [who, action, what, expected] of rows) {
    it(`${who} · ${action} · ${what} → ${expected}`, () => {
      const actor = actors[who];
      const record = records[what];
      expect(actor, `unknown actor ${who}`).toBeDefined();
      expect(record, `unknown record ${what}`).not.toBeUndefined();
      expect(outcomeOf(policy, actor, action, record)).toBe(expected);
      expect(can(policy, actor, action, record)).toBe(expected === 'allowed');
    });
  }
}

/** A member of an organization with this role (null: a guest), enabled, not an SSO member. */
export function member(role: Role | null, extra: { disabled?: boolean; sso?: boolean; userId?: string } = {}): OrganizationActor {
  return { userId: extra.userId ?? `user-${role ?? 'guest'}`, membership: { role, disabled: extra.disabled ?? false, sso: extra.sso ?? false } };
}

/** Someone outside the organization (or holding a token scoped to another one). */
export const outsider: OrganizationActor = { userId: 'user-outsider', membership: null };
