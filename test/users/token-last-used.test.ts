import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/lib/tokens.ts';
import { TOKEN_LAST_USED_RESOLUTION_MS, userForToken } from '../../src/modules/users/user.service.ts';
import { buildUser } from '../factories.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const lastUsedAt = async (caller: Caller) =>
  (await h.db.accessToken.findUniqueOrThrow({ where: { tokenHash: hashToken(caller.token) } })).lastUsedAt;

/** SQL statements Prisma sends while `action` runs. */
async function statements(action: () => Promise<unknown>): Promise<number> {
  const before = h.store.queries.length;
  await action();
  return h.store.queries.length - before;
}

describe('AccessToken.lastUsedAt', () => {
  it('is written on use, at most once a minute, within the lookup statement (REST and GraphQL)', async () => {
    const user = await buildUser(h);
    expect(await lastUsedAt(user)).toBeNull();

    const first = h.clock.now();
    expect(await statements(async () => expect((await user.rest('GET', '/v1/user')).status).toBe(200))).toBe(1);
    expect(await lastUsedAt(user)).toEqual(first);

    // Within the minute: nothing is written, and the request costs the same single statement.
    h.clock.advance(TOKEN_LAST_USED_RESOLUTION_MS - 1000);
    expect(await statements(async () => expect((await user.gql('{ user { id } }')).body.data.user.id).toBe(user.userId))).toBe(1);
    expect(await lastUsedAt(user)).toEqual(first);

    h.clock.advance(1000);
    const later = h.clock.now();
    expect(await statements(async () => expect((await user.gql('{ user { id } }')).status).toBe(200))).toBe(1);
    expect(await lastUsedAt(user)).toEqual(later);

    // Concurrent requests after another minute: all served, one time recorded.
    h.clock.advance(TOKEN_LAST_USED_RESOLUTION_MS + 5000);
    const results = await Promise.all(Array.from({ length: 5 }, () => user.rest('GET', '/v1/user')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await lastUsedAt(user)).toEqual(h.clock.now());
  });

  it("a token's use does not touch other tokens; unknown tokens write nothing", async () => {
    const [a, b] = [await buildUser(h), await buildUser(h)];
    await a.rest('GET', '/v1/user');
    expect(await lastUsedAt(a)).toEqual(h.clock.now());
    expect(await lastUsedAt(b)).toBeNull();
    expect(await userForToken(h.db, 'dp_not_a_token_0000000000000000', h.clock.now())).toBeNull();
    expect((await h.db.accessToken.findMany({ where: { lastUsedAt: { not: null }, userId: { in: [a.userId, b.userId] } } })).length).toBe(1);
  });

  it('the lookup returns the user record whole, with its types (dates, booleans)', async () => {
    const user = await buildUser(h, 'Typed User');
    await h.db.user.update({ where: { id: user.userId }, data: { photoURL: 'https://example.com/me.png' } });
    const found = await userForToken(h.db, user.token, h.clock.now());
    const token = await h.db.accessToken.findUniqueOrThrow({ where: { tokenHash: hashToken(user.token) } });
    expect(found).toEqual({ user: await h.db.user.findUniqueOrThrow({ where: { id: user.userId } }), tokenId: token.id, scopeOrganizationId: null });
    expect(found!.user.createdAt).toBeInstanceOf(Date);
    expect(found!.user.pending).toBe(false);
  });
});
