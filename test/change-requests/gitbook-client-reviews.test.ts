// The official client (`GitBookAPI` from @gitbook/api) asking for reviews of a change request and
// reviewing it over a real HTTP listener, then merging it under a space's merge rules.
import { describe, expect, it } from 'vitest';
import { expectGitBookShape } from '../support/assertions.ts';
import { expectApiError, useClientServer } from '../support/client-server.ts';

const s = useClientServer();

describe('official GitBookAPI client: review requests and reviews', () => {
  it('drives requestReviewers, getRequestedReviewers, submitReview, getReviews, getReviewById, removeRequestedReviewer', async () => {
    const ada = await s.newUser('Ada');
    const grace = await s.newUser('Grace');
    const api = ada.api;
    const org = (await api.orgs.createOrganization({ title: 'Reviewers' })).data;
    await s.store.database.prisma.member.create({ data: { organizationId: org.id, userId: grace.id, role: 'review' } });
    const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
    await api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } } as any);
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Review me' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro' } }] } as any);

    const requested = await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [grace.id] });
    expect(requested.status).toBe(200);
    expect(requested.data.users).toMatchObject([{ object: 'change-request-requested-reviewer', kind: 'user', user: { id: grace.id }, requestedBy: { id: ada.id } }]);
    const reviewers = (await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data;
    expect(reviewers.items.map((r: any) => r.user.id)).toEqual([grace.id]);

    // Merging needs an approved review of the current content.
    await expectApiError(api.spaces.mergeChangeRequest(space.id, cr.id), 409);
    const submitted = await grace.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' as any, comment: { markdown: 'LGTM' } });
    expect(submitted.status).toBe(201);
    const review = submitted.data;
    expect(review).toMatchObject({ object: 'change-request-review', status: 'approved', outdated: false, reviewer: { id: grace.id }, requestedBy: { id: ada.id } });
    expect((await api.spaces.getChangeRequestReviewById(space.id, cr.id, review.id)).data.id).toBe(review.id);
    const reviews = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false })).data;
    expect(reviews.items.map((r) => r.id)).toEqual([review.id]);
    await expectApiError(api.spaces.getChangeRequestReviewById(space.id, cr.id, 'unknownReview0000001'), 404);

    const removed = await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, grace.id);
    expect(removed.status).toBe(205);
    // GitBook documents no body for either answer: 205 removed, 204 not a requested reviewer.
    const removedBody = await removed.text();
    expect(removedBody).toBe('');
    expectGitBookShape('removeRequestedReviewerFromChangeRequest', 205, removedBody);
    expect((await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.items).toEqual([]);
    const again = await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, grace.id);
    expect(again.status).toBe(204);
    const againBody = await again.text();
    expect(againBody).toBe('');
    expectGitBookShape('removeRequestedReviewerFromChangeRequest', 204, againBody);
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data).toMatchObject({ result: 'merge' });
  });
});
