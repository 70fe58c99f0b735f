import { describe, expect, it } from 'vitest';
import { permissionsOf } from '../../src/core/authorization.ts';
import type { Role } from '../../src/generated/prisma/client.ts';
import type { ContentActor } from '../../src/modules/content-access/access-level.ts';
import { SPACE_PERMISSIONS, spacePolicy } from '../../src/modules/content-access/space.policy.ts';
import { member, policyTable } from '../support/policy-table.ts';

/** A caller with this effective level on the space (see access-level.ts for how it is computed). */
const atLevel = (level: Role | null, extra: { organizationSso?: boolean; role?: Role | null; sso?: boolean } = {}): ContentActor => ({
  ...member(extra.role === undefined ? 'read' : extra.role, { sso: extra.sso }),
  level,
  organizationSso: extra.organizationSso ?? false,
});

const actors = {
  'no level': atLevel(null, { role: null }),
  reader: atLevel('read'),
  commenter: atLevel('comment'),
  editor: atLevel('edit'),
  reviewer: atLevel('review'),
  creator: atLevel('create'),
  'space admin': atLevel('admin'),
  'editor, not an SSO member, SSO enforced': atLevel('edit', { organizationSso: true }),
  'org admin, SSO enforced': atLevel('admin', { organizationSso: true, role: 'admin' }),
};
const records = { space: { id: 's1', deletedAt: null }, 'deleted space': { id: 's2', deletedAt: new Date('2025-01-01') } };

describe('space policy (docs/api/spaces.md, "Access levels" and "Deletion")', () => {
  policyTable(spacePolicy, actors, records, [
    // Reading needs "read"; without it the space does not exist for the caller.
    ['no level', 'view', 'space', 404],
    ['no level', 'edit', 'space', 404],
    ['reader', 'view', 'space', 'allowed'],
    ['reader', 'read', 'space', 'allowed'],
    ['reader', 'comment', 'space', 403],
    ['commenter', 'comment', 'space', 'allowed'],
    // Editing title, emoji and edit mode needs "edit".
    ['commenter', 'edit', 'space', 403],
    ['editor', 'edit', 'space', 'allowed'],
    // Reviewing and merging need "review".
    ['editor', 'review', 'space', 403],
    ['reviewer', 'review', 'space', 'allowed'],
    ['reviewer', 'merge', 'space', 'allowed'],
    // Who can access it, deleting, moving, transferring and restoring need "admin".
    ['creator', 'manageAccess', 'space', 403],
    ['space admin', 'manageAccess', 'space', 'allowed'],
    ['editor', 'delete', 'space', 403],
    ['creator', 'delete', 'space', 403],
    ['space admin', 'delete', 'space', 'allowed'],
    ['creator', 'move', 'space', 403],
    ['space admin', 'move', 'space', 'allowed'],
    ['creator', 'transfer', 'space', 403],
    ['space admin', 'transfer', 'space', 'allowed'],
    ['space admin', 'restore', 'space', 'allowed'],
    // A deleted space: its admins still view and restore it; for everything else it is gone.
    ['space admin', 'view', 'deleted space', 'allowed'],
    ['space admin', 'restore', 'deleted space', 'allowed'],
    ['space admin', 'edit', 'deleted space', 404],
    ['space admin', 'read', 'deleted space', 404],
    ['space admin', 'delete', 'deleted space', 404],
    ['editor', 'view', 'deleted space', 404],
    ['creator', 'restore', 'deleted space', 404],
    // Where the organization enforces SSO, members who are not SSO members get 403 — admins excepted.
    ['editor, not an SSO member, SSO enforced', 'view', 'space', 403],
    ['org admin, SSO enforced', 'edit', 'space', 'allowed'],
  ]);

  it('the permissions object is the policy, key by key', () => {
    const of = (actor: ContentActor, record = records.space) => permissionsOf(spacePolicy, actor, record, SPACE_PERMISSIONS);
    expect(of(actors.reader)).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false, installIntegration: false });
    expect(of(actors.editor)).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: false, comment: true, merge: false, review: false, installIntegration: false });
    expect(of(actors.reviewer)).toEqual({ view: true, access: true, admin: false, viewInviteLinks: false, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: false });
    expect(of(actors['space admin'])).toEqual({ view: true, access: true, admin: true, viewInviteLinks: true, edit: true, triggerGitSync: true, comment: true, merge: true, review: true, installIntegration: true });
    expect(of(actors['no level'])).toEqual({ view: false, access: false, admin: false, viewInviteLinks: false, edit: false, triggerGitSync: false, comment: false, merge: false, review: false, installIntegration: false });
  });
});
