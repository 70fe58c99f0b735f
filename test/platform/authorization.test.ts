import { describe, expect, it } from 'vitest';
import { authorize, can, definePolicy, permissionsOf } from '../../src/core/authorization.ts';
import { ForbiddenError, NotFoundError } from '../../src/core/errors.ts';

// The generic half of authorization (src/core/authorization.ts). `can` runs for every key of every list
// item's `permissions`, so a refusal is only described, never built, unless `authorize` throws it.
interface Actor { level: number; sso: boolean }
interface Doc { id: string }

function countingPolicy() {
  const built = { notFound: 0, refusal: 0 };
  const policy = definePolicy<Actor, Doc>()({
    visible: (actor) => actor.level > 0,
    notFound: (doc) => (built.notFound++, `Doc "${doc.id}" not found`),
    gates: [{ allows: (actor) => actor.sso, refusal: 'SSO required', except: ['read'] }],
    rules: { read: (a) => a.level >= 1, edit: (a) => a.level >= 2, admin: (a) => a.level >= 3 },
    refusals: { read: 'Cannot read', edit: (doc) => (built.refusal++, `Cannot edit ${doc.id}`), admin: 'Cannot administer' },
  });
  return { policy, built };
}

describe('authorization', () => {
  const doc = { id: 'd1' };

  it('permissionsOf answers each key by its rule, without building the refusals', () => {
    const { policy, built } = countingPolicy();
    const keys = { read: 'read', edit: 'edit', admin: 'admin' } as const;
    expect(permissionsOf(policy, { level: 0, sso: true }, doc, keys)).toEqual({ read: false, edit: false, admin: false });
    expect(permissionsOf(policy, { level: 1, sso: true }, doc, keys)).toEqual({ read: true, edit: false, admin: false });
    expect(permissionsOf(policy, { level: 3, sso: false }, doc, keys)).toEqual({ read: true, edit: false, admin: false });
    expect(permissionsOf(policy, { level: 3, sso: true }, doc, keys)).toEqual({ read: true, edit: true, admin: true });
    expect(can(policy, { level: 1, sso: true }, 'edit', doc)).toBe(false);
    expect(built).toEqual({ notFound: 0, refusal: 0 });
  });

  it('authorize throws the refusal of the first check that fails: 404 when invisible, then the gates, then the rule', () => {
    const { policy, built } = countingPolicy();
    expect(() => authorize(policy, { level: 0, sso: true }, 'read', doc)).toThrow(NotFoundError);
    expect(() => authorize(policy, { level: 0, sso: true }, 'read', doc)).toThrow('Doc "d1" not found');
    expect(() => authorize(policy, { level: 3, sso: false }, 'edit', doc)).toThrow(new ForbiddenError('SSO required'));
    expect(() => authorize(policy, { level: 1, sso: true }, 'edit', doc)).toThrow(new ForbiddenError('Cannot edit d1'));
    expect(() => authorize(policy, { level: 3, sso: true }, 'admin', doc)).not.toThrow();
    expect(built).toEqual({ notFound: 2, refusal: 1 });
  });
});
