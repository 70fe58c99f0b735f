import { describe } from 'vitest';
import type { Role } from '../../src/generated/prisma/client.ts';
import { changeRequestPolicy, type ChangeRequestActor } from '../../src/modules/change-requests/change-request.policy.ts';
import { member, policyTable } from '../support/policy-table.ts';

/** A caller with this effective level on the space, as user `userId`. */
const atLevel = (level: Role | null, userId = 'u-other'): ChangeRequestActor => ({ ...member('read'), level, organizationSso: false, userId });

const actors = {
  'no level': atLevel(null),
  reader: atLevel('read'),
  commenter: atLevel('comment'),
  'commenting author': atLevel('comment', 'u-author'),
  editor: atLevel('edit'),
  reviewer: atLevel('review'),
  'reviewing author': atLevel('review', 'u-author'),
};
const records = { 'change request': { id: 'cr1', createdById: 'u-author', status: 'open' as const } };

describe('change request policy (docs/api/change-requests.md, "Change requests")', () => {
  policyTable(changeRequestPolicy, actors, records, [
    // Whoever reads the space reads its change requests; others do not know they exist.
    ['no level', 'read', 'change request', 404],
    ['reader', 'read', 'change request', 'allowed'],
    // Opening one and editing its subject and content need "edit".
    ['commenter', 'create', 'change request', 403],
    ['editor', 'create', 'change request', 'allowed'],
    ['reader', 'update', 'change request', 403],
    ['commenting author', 'update', 'change request', 403],
    ['editor', 'update', 'change request', 'allowed'],
    // Its status is its author's or an editor's.
    ['commenter', 'setStatus', 'change request', 403],
    ['commenting author', 'setStatus', 'change request', 'allowed'],
    ['editor', 'setStatus', 'change request', 'allowed'],
    // Merging needs "review" (the space's merge permission).
    ['editor', 'merge', 'change request', 403],
    ['reviewer', 'merge', 'change request', 'allowed'],
    // Asking for reviews is its author's or an editor's; reviewing needs "review" (the level that merges).
    ['no level', 'requestReview', 'change request', 404],
    ['commenter', 'requestReview', 'change request', 403],
    ['commenting author', 'requestReview', 'change request', 'allowed'],
    ['editor', 'requestReview', 'change request', 'allowed'],
    ['no level', 'review', 'change request', 404],
    ['commenter', 'review', 'change request', 403],
    ['editor', 'review', 'change request', 403],
    ['reviewer', 'review', 'change request', 'allowed'],
    ['reviewing author', 'review', 'change request', 403],
  ]);
});
