import DataLoader from 'dataloader';
import type { CommentReaction, User } from '../../generated/prisma/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { keyedLoader } from '../../core/loaders.ts';
import { userJson } from '../users/index.ts';

/**
 * What a page of comments shows besides its rows. Reactions come with the rows (a join in the page's
 * statement: `reactionsSelect`); repliers and the page a comment targets need SQL Prisma cannot say
 * (a grouping, the content tree), so one per-request loader reads both, for the whole page of comments,
 * in one statement.
 */

export interface ReactionSummary {
  emoji: string;
  count: number;
  users: { user: ReturnType<typeof userJson>; reactedAt: string }[];
}

/** The reactions a comment's `reactions` field reads with the comment, oldest first. */
export const reactionsSelect = {
  reactions: { include: { user: true }, orderBy: [{ reactedAt: 'asc' }, { userId: 'asc' }] },
} satisfies Prisma.CommentSelect;

/** GitBook's `EmojiReactions`: one entry per emoji, in order of first reaction, its users in order. */
export function reactionSummaries(reactions: (CommentReaction & { user: User })[], apiUrl: string): ReactionSummary[] {
  const byEmoji = new Map<string, ReactionSummary>();
  for (const row of reactions) {
    const summary = byEmoji.get(row.emoji) ?? { emoji: row.emoji, count: 0, users: [] };
    summary.count += 1;
    summary.users.push({ user: userJson(row.user, apiUrl), reactedAt: row.reactedAt.toISOString() });
    byEmoji.set(row.emoji, summary);
  }
  return [...byEmoji.values()];
}

export interface Replier {
  user: ReturnType<typeof userJson>;
  count: number;
  updatedAt: string;
}

export interface TargetPage {
  id: string;
  title: string;
  emoji: string | null;
  path: string;
  outdated: boolean;
}

type Extra = { kind: 'repliers'; id: string } | { kind: 'target'; id: string };
type ExtraRow = {
  kind: 'replier' | 'target';
  commentId: string;
  user: User | null;
  replyCount: number | null;
  lastReplyAt: Date | null;
  page: TargetPage | null;
};

/**
 * Who replied to each comment, with how many replies and when last (GitBook's `repliers`, in order of
 * first reply), and the page each comment targets, as it was in the revision the comment was posted on,
 * with whether the change request (for a comment on the space itself: the space's current content) has
 * since changed or deleted it (`outdated`). One statement for a page of comments, whichever of the two
 * its fields ask for.
 */
function commentExtrasLoader(ctx: Context) {
  return keyedLoader(ctx, 'commentExtras', () =>
    new DataLoader<Extra, Replier[] | TargetPage | null, string>(
      async (keys) => {
        const replied = keys.filter((k) => k.kind === 'repliers').map((k) => k.id);
        const targeted = keys.filter((k) => k.kind === 'target').map((k) => k.id);
        const parts: Prisma.Sql[] = [];
        if (replied.length) {
          parts.push(Prisma.sql`
            SELECT 'replier' AS "kind", r."parentId" AS "commentId", to_jsonb(u) AS "user", count(*)::int AS "replyCount",
                   max(r."postedAt") AS "lastReplyAt", min(r."postedAt") AS "firstReplyAt", u."id" AS "userId", NULL::jsonb AS "page"
            FROM "Comment" r JOIN "User" u ON u."id" = r."postedById"
            WHERE r."parentId" IN (${Prisma.join(replied)})
            GROUP BY r."parentId", u."id"`);
        }
        if (targeted.length) {
          parts.push(Prisma.sql`
            SELECT 'target' AS "kind", c."id" AS "commentId", NULL::jsonb AS "user", NULL::int AS "replyCount",
                   NULL::timestamp(3) AS "lastReplyAt", NULL::timestamp(3) AS "firstReplyAt", NULL::text AS "userId",
                   jsonb_build_object('id', tp."item" ->> 'id', 'title', tp."item" ->> 'title', 'emoji', tp."item" ->> 'emoji', 'path', tp."item" ->> 'path',
                     'outdated', (cp."item" IS NULL OR (cp."item" ->> 'documentHash') IS DISTINCT FROM (tp."item" ->> 'documentHash'))) AS "page"
            FROM "Comment" c
            JOIN "Revision" tr ON tr."id" = c."targetRevisionId"
            CROSS JOIN LATERAL content_find(tr."pageTree", ARRAY[c."targetPageId"]) tp
            LEFT JOIN "ChangeRequest" cr ON cr."id" = c."changeRequestId"
            LEFT JOIN "Space" s ON s."id" = c."spaceId" AND c."changeRequestId" IS NULL
            LEFT JOIN "Revision" r ON r."id" = COALESCE(cr."revisionId", s."revisionId")
            LEFT JOIN LATERAL content_find(r."pageTree", ARRAY[c."targetPageId"]) cp ON true
            WHERE c."id" IN (${Prisma.join(targeted)})`);
        }
        const rows = await ctx.db.$queryRaw<ExtraRow[]>(Prisma.sql`${Prisma.join(parts, ' UNION ALL ')} ORDER BY "kind", "firstReplyAt", "userId"`);
        const repliers = new Map<string, Replier[]>();
        const pages = new Map<string, TargetPage>();
        for (const row of rows) {
          if (row.kind === 'target') {
            pages.set(row.commentId, row.page!);
            continue;
          }
          const list = repliers.get(row.commentId) ?? [];
          list.push({ user: userJson(row.user!, ctx.config.apiUrl), count: row.replyCount!, updatedAt: new Date(row.lastReplyAt!).toISOString() });
          repliers.set(row.commentId, list);
        }
        return keys.map((k) => (k.kind === 'repliers' ? (repliers.get(k.id) ?? []) : (pages.get(k.id) ?? null)));
      },
      { cacheKeyFn: (k) => `${k.kind}:${k.id}` },
    ),
  );
}

/** Who replied to a comment (GitBook's `repliers`). */
export const repliersOf = (ctx: Context, commentId: string) => commentExtrasLoader(ctx).load({ kind: 'repliers', id: commentId }) as Promise<Replier[]>;

/** The page a comment targets, or null when that page is not in the revision it was posted on. */
export const targetPageOf = (ctx: Context, commentId: string) => commentExtrasLoader(ctx).load({ kind: 'target', id: commentId }) as Promise<TargetPage | null>;
