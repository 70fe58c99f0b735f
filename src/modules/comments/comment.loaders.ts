import DataLoader from 'dataloader';
import type { User } from '../../generated/prisma/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { keyedLoader } from '../../core/loaders.ts';
import { userJson } from '../users/index.ts';

/**
 * Per-request loaders of what a page of comments shows besides its rows: reactions with their users,
 * repliers, and the page a comment targets. Each is one statement for the whole page of comments.
 */


export interface ReactionSummary {
  emoji: string;
  count: number;
  users: { user: ReturnType<typeof userJson>; reactedAt: string }[];
}

export function reactionsLoader(ctx: Context) {
  return keyedLoader(ctx, 'commentReactions', () =>
    new DataLoader<string, ReactionSummary[]>(async (ids) => {
      const rows = await ctx.db.commentReaction.findMany({
        where: { commentId: { in: [...ids] } },
        include: { user: true },
        orderBy: [{ reactedAt: 'asc' }, { userId: 'asc' }],
      });
      return ids.map((id) => {
        const byEmoji = new Map<string, ReactionSummary>();
        for (const row of rows.filter((r) => r.commentId === id)) {
          const summary = byEmoji.get(row.emoji) ?? { emoji: row.emoji, count: 0, users: [] };
          summary.count += 1;
          summary.users.push({ user: userJson(row.user, ctx.config.apiUrl), reactedAt: row.reactedAt.toISOString() });
          byEmoji.set(row.emoji, summary);
        }
        return [...byEmoji.values()];
      });
    }),
  );
}

export interface Replier {
  user: ReturnType<typeof userJson>;
  count: number;
  updatedAt: string;
}

/** Who replied to each comment, with how many replies and when last (GitBook's `repliers`): one statement. */
export function repliersLoader(ctx: Context) {
  return keyedLoader(ctx, 'commentRepliers', () =>
    new DataLoader<string, Replier[]>(async (ids) => {
      const rows = await ctx.db.$queryRaw<(User & { parentId: string; replyCount: number; lastReplyAt: Date })[]>(Prisma.sql`
        SELECT r."parentId", count(*)::int AS "replyCount", max(r."postedAt") AS "lastReplyAt", u.*
        FROM "Comment" r JOIN "User" u ON u."id" = r."postedById"
        WHERE r."parentId" IN (${Prisma.join([...ids])})
        GROUP BY r."parentId", u."id"
        ORDER BY min(r."postedAt"), u."id"`);
      return ids.map((id) =>
        rows
          .filter((row) => row.parentId === id)
          .map(({ parentId: _parent, replyCount, lastReplyAt, ...user }) => ({
            user: userJson(user as User, ctx.config.apiUrl),
            count: replyCount,
            updatedAt: new Date(lastReplyAt).toISOString(),
          })),
      );
    }),
  );
}

export interface TargetPage {
  id: string;
  title: string;
  emoji: string | null;
  path: string;
  outdated: boolean;
}

/**
 * The page each comment targets, as it was in the revision the comment was posted on, and whether the
 * change request (for a comment on the space itself: the space's current content) has since changed or
 * deleted it (`outdated`). One statement for a page of comments.
 */
export function targetPageLoader(ctx: Context) {
  return keyedLoader(ctx, 'commentTargetPage', () =>
    new DataLoader<string, TargetPage | null>(async (ids) => {
      const rows = await ctx.db.$queryRaw<(TargetPage & { commentId: string })[]>(Prisma.sql`
        SELECT c."id" AS "commentId", tp."item" ->> 'id' AS "id", tp."item" ->> 'title' AS "title", tp."item" ->> 'emoji' AS "emoji",
               tp."item" ->> 'path' AS "path",
               (cp."item" IS NULL OR (cp."item" ->> 'documentHash') IS DISTINCT FROM (tp."item" ->> 'documentHash')) AS "outdated"
        FROM "Comment" c
        JOIN "Revision" tr ON tr."id" = c."targetRevisionId"
        CROSS JOIN LATERAL content_find(tr."pageTree", ARRAY[c."targetPageId"]) tp
        LEFT JOIN "ChangeRequest" cr ON cr."id" = c."changeRequestId"
        LEFT JOIN "Space" s ON s."id" = c."spaceId" AND c."changeRequestId" IS NULL
        LEFT JOIN "Revision" r ON r."id" = COALESCE(cr."revisionId", s."revisionId")
        LEFT JOIN LATERAL content_find(r."pageTree", ARRAY[c."targetPageId"]) cp ON true
        WHERE c."id" IN (${Prisma.join([...ids])})`);
      const byComment = new Map(rows.map((r) => [r.commentId, r]));
      return ids.map((id) => {
        const row = byComment.get(id);
        if (!row) return null;
        const { commentId: _comment, ...page } = row;
        return page;
      });
    }),
  );
}
