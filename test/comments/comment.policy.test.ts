import { describe } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { commentPolicy, type CommentActor } from '../../src/modules/comments/comment.policy.ts';
import { member, policyTable } from '../support/policy-table.ts';

/** A caller with this effective level on the space, as user `userId`. */
const atLevel = (level: Role | null, userId = 'u-other'): CommentActor => ({ ...member('read'), level, organizationSso: false, userId });

const actors = {
  'no level': atLevel(null),
  reader: atLevel('read'),
  'reading author': atLevel('read', 'u-author'),
  commenter: atLevel('comment'),
  'commenting author': atLevel('comment', 'u-author'),
  editor: atLevel('edit'),
  admin: atLevel('admin'),
};
const records = {
  comment: { id: 'c1', postedById: 'u-author' },
  "a deleted user's comment": { id: 'c2', postedById: null },
};

describe('comment policy (issue "Review conversations")', () => {
  policyTable(commentPolicy, actors, records, [
    // Whoever reads the space reads its comments; others do not know they exist.
    ['no level', 'read', 'comment', 404],
    ['reader', 'read', 'comment', 'allowed'],
    // Posting, replying and reacting need "comment".
    ['reader', 'post', 'comment', 403],
    ['commenter', 'post', 'comment', 'allowed'],
    ['reader', 'react', 'comment', 403],
    ['commenter', 'react', 'comment', 'allowed'],
    // A body is its author's to edit (or an admin's); so is deleting.
    ['commenter', 'edit', 'comment', 403],
    ['editor', 'edit', 'comment', 403],
    ['commenting author', 'edit', 'comment', 'allowed'],
    ['admin', 'edit', 'comment', 'allowed'],
    ['editor', 'delete', 'comment', 403],
    ['commenting author', 'delete', 'comment', 'allowed'],
    ['admin', 'delete', 'comment', 'allowed'],
    ['commenter', 'edit', "a deleted user's comment", 403],
    ['admin', 'delete', "a deleted user's comment", 'allowed'],
    // Resolving: the author (even one who only reads now) or an editor.
    ['commenter', 'resolve', 'comment', 403],
    ['reading author', 'resolve', 'comment', 'allowed'],
    ['editor', 'resolve', 'comment', 'allowed'],
  ]);
});
