// Review requests and reviews of change requests (issue 26 §2): both doors, GitBook's shapes, the
// outdated rule, the review status, the merge rule, and the refusals.
import { describe, expect, it } from 'vitest';
import { buildMember, buildOrganization, buildSpace } from '../factories.ts';
import { DOORS, expectFailure, expectOk, gqlData, restError, throughDoor } from '../support/assertions.ts';
import { refusalMatrix, type RefusalOp } from '../support/refusals.ts';
import { useHarness, type Caller } from '../support/harness.ts';

const h = useHarness();

const crPath = (s: string, c: string) => `/v1/spaces/${s}/change-requests/${c}`;
const REVIEW = 'object id revision reviewer { id } requestedBy { id } status outdated createdAt updatedAt urls { location } comment { id body }';

/** A space, an open change request by an editor with one page, a reviewer, a commenter and a reader. */
async function setup() {
  const { admin, organizationId: o } = await buildOrganization(h);
  const space = await buildSpace(admin, o, { title: 'Docs' });
  const [author, reviewer, second, commenter, reader] = [
    await buildMember(h, o, 'edit'),
    await buildMember(h, o, 'review'),
    await buildMember(h, o, 'review'),
    await buildMember(h, o, 'comment'),
    await buildMember(h, o, 'read'),
  ];
  const cr = expectOk(await author.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Intro' }), 201);
  await edit(author, space.id, cr.id, 'one');
  return { admin, o, space, cr: expectOk(await author.rest('GET', crPath(space.id, cr.id))), author, reviewer, second, commenter, reader, path: crPath(space.id, cr.id) };
}

async function edit(caller: Caller, s: string, c: string, markdown: string) {
  return expectOk(await caller.rest('POST', `${crPath(s, c)}/content`, { changes: [{ operation: 'insert_page', title: markdown, document: { markdown } }] }));
}

describe('review requests', () => {
  it('REST: request, list, re-request, remove (205, then 204); GitBook shapes', async () => {
    const { space, cr, author, reviewer, second, path } = await setup();
    const requested = expectOk(await author.rest('POST', `${path}/requested-reviewers`, { users: [reviewer.userId, second.userId] }), 200, 'requestReviewersForChangeRequest');
    expect(requested.users).toMatchObject([
      { object: 'change-request-requested-reviewer', kind: 'user', user: { id: reviewer.userId }, requestedBy: { id: author.userId }, revision: cr.revision },
      { object: 'change-request-requested-reviewer', kind: 'user', user: { id: second.userId } },
    ]);
    const list = expectOk(await reviewer.rest('GET', `${path}/requested-reviewers?limit=1`), 200, 'getRequestedReviewersByChangeRequestId');
    expect(list.count).toBe(2);
    expect(list.items).toHaveLength(1);
    const rest = expectOk(await reviewer.rest('GET', `${path}/requested-reviewers?page=${list.next.page}`), 200, 'getRequestedReviewersByChangeRequestId');
    expect([...list.items, ...rest.items].map((r: any) => r.user.id).sort()).toEqual([reviewer.userId, second.userId].sort());
    // Asking again renews the request, never duplicates it; a subject renames the change request.
    expectOk(await author.rest('POST', `${path}/requested-reviewers`, { users: [reviewer.userId], subject: 'Intro, reviewed' }), 200, 'requestReviewersForChangeRequest');
    expect(expectOk(await author.rest('GET', `${path}/requested-reviewers`)).count).toBe(2);
    expect(expectOk(await author.rest('GET', path)).subject).toBe('Intro, reviewed');
    // The change request shows that reviews were asked for.
    expect(expectOk(await author.rest('GET', path), 200, 'getChangeRequestById').reviewStatus).toBe('requested');

    const removed = await author.rest('DELETE', `${path}/requested-reviewers/${second.userId}`);
    expect([removed.status, removed.text]).toEqual([205, '']);
    const again = await author.rest('DELETE', `${path}/requested-reviewers/${second.userId}`);
    expect([again.status, again.text]).toEqual([204, '']);
    // The reviewer may decline their own request.
    expect((await reviewer.rest('DELETE', `${path}/requested-reviewers/${reviewer.userId}`)).status).toBe(205);
    expect(expectOk(await author.rest('GET', `${path}/requested-reviewers`)).count).toBe(0);
    expect(space.id).toBeTruthy();
  });

  it.each(DOORS)('%s: only users who can read the space are asked (400 otherwise, unknown users alike)', async (door) => {
    const { admin, o, space, cr, author, reviewer, path } = await setup();
    const guest = await buildMember(h, o, null);
    const stranger = (await buildOrganization(h, 'Elsewhere')).admin;
    for (const user of [guest.userId, stranger.userId, 'unknownUser000000001']) {
      const res = await throughDoor(door, author, ['POST', `${path}/requested-reviewers`, { users: [reviewer.userId, user] }], [
        'requestChangeRequestReviewers',
        'mutation($s: String!, $c: String!, $u: [String!]!) { requestChangeRequestReviewers(spaceId: $s, changeRequestId: $c, users: $u) { users { user { id } } } }',
        { s: space.id, c: cr.id, u: [reviewer.userId, user] },
      ]);
      expectFailure(res, 400, 'users[1]');
    }
    // Nothing was written: all or nothing.
    expect(await h.db.changeRequestRequestedReviewer.count({ where: { changeRequestId: cr.id } })).toBe(0);
    // A guest given the space through a grant reads it, so may be asked.
    await h.db.spaceUserGrant.create({ data: { spaceId: space.id, organizationId: o, userId: guest.userId, role: 'read' } });
    expectOk(await author.rest('POST', `${path}/requested-reviewers`, { users: [guest.userId] }));
    restError(await author.rest('POST', `${path}/requested-reviewers`, { users: [] }), 400, 'users');
    expect(admin).toBeTruthy();
  });

  it('GraphQL: request, list, remove', async () => {
    const { space, cr, author, reviewer } = await setup();
    const vars = { s: space.id, c: cr.id, u: [reviewer.userId] };
    const made = gqlData(
      await author.gql('mutation($s: String!, $c: String!, $u: [String!]!) { requestChangeRequestReviewers(spaceId: $s, changeRequestId: $c, users: $u) { users { kind user { id } requestedBy { id } revision } } }', vars),
      'requestChangeRequestReviewers',
    );
    expect(made.users).toEqual([{ kind: 'user', user: { id: reviewer.userId }, requestedBy: { id: author.userId }, revision: cr.revision }]);
    const listed = gqlData(
      await reviewer.gql('query($s: String!, $c: String!) { changeRequestRequestedReviewers(spaceId: $s, changeRequestId: $c) { count items { user { id } } } }', vars),
      'changeRequestRequestedReviewers',
    );
    expect(listed).toEqual({ count: 1, items: [{ user: { id: reviewer.userId } }] });
    const remove = 'mutation($s: String!, $c: String!, $u: String!) { removeChangeRequestRequestedReviewer(spaceId: $s, changeRequestId: $c, userId: $u) }';
    expect(gqlData(await author.gql(remove, { ...vars, u: reviewer.userId }), 'removeChangeRequestRequestedReviewer')).toBe(true);
    expect(gqlData(await author.gql(remove, { ...vars, u: reviewer.userId }), 'removeChangeRequestRequestedReviewer')).toBe(false);
  });
});

  it.each(DOORS)('%s: change requests a user is asked to review (requestedReviewer), by orderBy; 400 naming a bad value', async (door) => {
    const { space, cr, author, reviewer, second } = await setup();
    h.clock.advance(1000);
    const other = expectOk(await author.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Other' }), 201);
    await author.rest('PATCH', crPath(space.id, other.id), { status: 'open' });
    h.clock.advance(1000);
    const third = expectOk(await author.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Third' }), 201);
    await author.rest('PATCH', crPath(space.id, third.id), { status: 'open' });
    await author.rest('PATCH', crPath(space.id, cr.id), { status: 'open' });
    await author.rest('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { users: [reviewer.userId] });
    await author.rest('POST', `${crPath(space.id, third.id)}/requested-reviewers`, { users: [reviewer.userId, second.userId] });
    // A withdrawn request no longer counts.
    await author.rest('POST', `${crPath(space.id, other.id)}/requested-reviewers`, { users: [reviewer.userId] });
    await author.rest('DELETE', `${crPath(space.id, other.id)}/requested-reviewers/${reviewer.userId}`);
    h.clock.advance(1000);
    await author.rest('PATCH', crPath(space.id, cr.id), { subject: 'Intro, updated last' });
    const list = (query: Record<string, string>) => {
      const search = new URLSearchParams(query).toString();
      const args = Object.keys(query).map((k) => `${k}: $${k}`).join(', ');
      const types = Object.keys(query).map((k) => `$${k}: ${k === 'orderBy' ? 'ChangeRequestOrderBy' : 'String'}`).join(', ');
      return throughDoor(door, reviewer, ['GET', `/v1/spaces/${space.id}/change-requests?${search}`], [
        'spaceChangeRequests',
        `query($s: String!${types ? `, ${types}` : ''}) { spaceChangeRequests(spaceId: $s${args ? `, ${args}` : ''}) { count items { id subject } } }`,
        { s: space.id, ...query },
      ]);
    };
    const mine = expectOk(await list({ requestedReviewer: reviewer.userId }), 200, door === 'rest' ? 'listChangeRequestsForSpace' : undefined);
    expect(mine.count).toBe(2);
    // GitBook's default order: the most recently updated first.
    expect(mine.items.map((c: any) => c.id)).toEqual([cr.id, third.id]);
    const byCreation = expectOk(await list({ requestedReviewer: reviewer.userId, orderBy: 'createdAt' }));
    expect(byCreation.items.map((c: any) => c.id)).toEqual([third.id, cr.id]);
    expect(expectOk(await list({ requestedReviewer: second.userId })).items.map((c: any) => c.id)).toEqual([third.id]);
    expect(expectOk(await list({ requestedReviewer: author.userId })).count).toBe(0);
    expect(expectOk(await list({ orderBy: 'updatedAt' })).count).toBe(3);
    expectFailure(await list({ requestedReviewer: 'x'.repeat(65) }), 400, 'requestedReviewer');
    expectFailure(await list({ orderBy: 'subject' }), 400, 'orderBy');
  });

describe('reviews', () => {
  it('REST: submit (201, Location), get, list; requestedBy; comment; GitBook shapes', async () => {
    const { cr, author, reviewer, second, path } = await setup();
    expectOk(await author.rest('POST', `${path}/requested-reviewers`, { users: [reviewer.userId] }));
    const res = await reviewer.rest('POST', `${path}/reviews`, { status: 'changes-requested', comment: { markdown: 'Needs an example' } });
    const review = expectOk(res, 201, 'submitChangeRequestReview');
    expect(res.headers.get('location')).toBe(review.urls.location);
    expect(review).toMatchObject({
      object: 'change-request-review',
      revision: cr.revision,
      reviewer: { id: reviewer.userId },
      requestedBy: { id: author.userId },
      status: 'changes-requested',
      outdated: false,
      comment: { object: 'comment', body: { markdown: 'Needs an example' }, postedBy: { id: reviewer.userId } },
    });
    expect(review.urls.location).toBe(`${h.config.apiUrl}${path.slice(3)}/reviews/${review.id}`);
    // The comment is a comment on the change request.
    expect(expectOk(await author.rest('GET', `${path}/comments/${review.comment.id}`)).body).toEqual({ markdown: 'Needs an example' });
    expect(expectOk(await author.rest('GET', path), 200, 'getChangeRequestById')).toMatchObject({ comments: 1, reviewStatus: 'changes-requested' });

    h.clock.advance(1000);
    const approval = expectOk(await second.rest('POST', `${path}/reviews`, { status: 'approved', comment: {} }), 201, 'submitChangeRequestReview');
    expect(approval.requestedBy).toBeUndefined();
    expect(approval.comment).toBeUndefined();
    expect(expectOk(await reviewer.rest('GET', `${path}/reviews/${review.id}`), 200, 'getChangeRequestReviewById')).toEqual(review);
    const list = expectOk(await reviewer.rest('GET', `${path}/reviews?limit=1`), 200, 'getReviewsByChangeRequestId');
    expect([list.count, list.items.map((r: any) => r.id)]).toEqual([2, [approval.id]]);
    const next = expectOk(await reviewer.rest('GET', `${path}/reviews?limit=1&page=${list.next.page}`), 200, 'getReviewsByChangeRequestId');
    expect(next.items.map((r: any) => r.id)).toEqual([review.id]);
    expect(next.next).toBeUndefined();
    // The reviewer changes their mind: their latest review of the content counts.
    h.clock.advance(1000);
    expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 201, 'submitChangeRequestReview');
    expect(expectOk(await author.rest('GET', path)).reviewStatus).toBe('approved');
    // Unknown reviews, and reviews of another change request, are 404.
    restError(await reviewer.rest('GET', `${path}/reviews/unknownReview0000001`), 404);
    restError(await reviewer.rest('POST', `${path}/reviews`, { status: 'maybe' }), 400, 'status');
    restError(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved', comment: { markdown: '' } }), 400, 'comment');
  });

  it('a review becomes outdated when the content changes afterwards; the outdated filter', async () => {
    const { space, cr, author, reviewer, path } = await setup();
    const review = expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 201);
    expect(expectOk(await author.rest('GET', path)).reviewStatus).toBe('approved');
    await edit(author, space.id, cr.id, 'two');
    const after = expectOk(await reviewer.rest('GET', `${path}/reviews/${review.id}`), 200, 'getChangeRequestReviewById');
    expect(after).toMatchObject({ outdated: true, revision: cr.revision });
    expect(expectOk(await author.rest('GET', path), 200, 'getChangeRequestById').reviewStatus).toBeUndefined();
    expect(expectOk(await reviewer.rest('GET', `${path}/reviews?outdated=true`)).items.map((r: any) => r.id)).toEqual([review.id]);
    expect(expectOk(await reviewer.rest('GET', `${path}/reviews?outdated=false`)).count).toBe(0);
    const fresh = expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 201);
    expect(fresh.outdated).toBe(false);
    expect(expectOk(await reviewer.rest('GET', `${path}/reviews?outdated=false`)).items.map((r: any) => r.id)).toEqual([fresh.id]);
  });

  it('GraphQL: submit, get, list, the review status', async () => {
    const { space, cr, reviewer, author } = await setup();
    const vars = { s: space.id, c: cr.id };
    const review = gqlData(
      await reviewer.gql(`mutation($s: String!, $c: String!) { submitChangeRequestReview(spaceId: $s, changeRequestId: $c, status: "approved", comment: { markdown: "LGTM" }) { ${REVIEW} } }`, vars),
      'submitChangeRequestReview',
    );
    expect(review).toMatchObject({ object: 'change-request-review', status: 'approved', outdated: false, reviewer: { id: reviewer.userId }, requestedBy: null, comment: { body: { markdown: 'LGTM' } } });
    const got = gqlData(await author.gql(`query($s: String!, $c: String!, $r: String!) { changeRequestReview(spaceId: $s, changeRequestId: $c, reviewId: $r) { ${REVIEW} } }`, { ...vars, r: review.id }), 'changeRequestReview');
    expect(got).toEqual(review);
    const list = gqlData(await author.gql('query($s: String!, $c: String!) { changeRequestReviews(spaceId: $s, changeRequestId: $c, outdated: false) { count items { id } } }', vars), 'changeRequestReviews');
    expect(list).toEqual({ count: 1, items: [{ id: review.id }] });
    const status = gqlData(await author.gql('query($s: String!, $c: String!) { spaceChangeRequest(spaceId: $s, changeRequestId: $c) { reviewStatus } }', vars), 'spaceChangeRequest');
    expect(status).toEqual({ reviewStatus: 'approved' });
    expectFailure(
      await throughDoor('graphql', reviewer, ['POST', ''], ['submitChangeRequestReview', 'mutation($s: String!, $c: String!) { submitChangeRequestReview(spaceId: $s, changeRequestId: $c, status: "nope") { id } }', vars]),
      400,
    );
  });

  it('the author does not review their own change request; merged ones take no reviews (409)', async () => {
    const { author, reviewer, admin, path } = await setup();
    restError(await author.rest('POST', `${path}/reviews`, { status: 'approved' }), 403);
    expectOk(await admin.rest('POST', `${path}/merge`));
    restError(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 409);
    restError(await author.rest('POST', `${path}/requested-reviewers`, { users: [reviewer.userId] }), 409);
  });
});

describe('merge rules: an approved, up-to-date review before a merge', () => {
  it.each(DOORS)('%s: 409 naming the rule, then merged once approved; an approval of older content does not count', async (door) => {
    const { admin, space, cr, author, reviewer, path } = await setup();
    // Only the space's admins set the rules; GitBook's shape; unsupported rules are a 400.
    restError(await author.rest('PATCH', `/v1/spaces/${space.id}`, { mergeRules: { type: 'none' } }), 403);
    restError(await admin.rest('PATCH', `/v1/spaces/${space.id}`, { mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review' }] } }), 400, 'mergeRules.rules[0].rule');
    expect(expectOk(await admin.rest('GET', `/v1/spaces/${space.id}`), 200, 'getSpaceById').mergeRules).toEqual({ type: 'inherit' });
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] };
    expect(expectOk(await admin.rest('PATCH', `/v1/spaces/${space.id}`, { mergeRules: rules }), 200, 'updateSpaceById').mergeRules).toEqual(rules);

    const merge = () =>
      throughDoor(door, admin, ['POST', `${path}/merge`], [
        'mergeChangeRequest',
        'mutation($s: String!, $c: String!) { mergeChangeRequest(spaceId: $s, changeRequestId: $c) { result } }',
        { s: space.id, c: cr.id },
      ]);
    const refused = expectFailure(await merge(), 409);
    expect(refused).toContain('require_at_least_one_approved_review');
    expect(refused).toContain('approved review');
    // Changes requested: still refused.
    expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'changes-requested' }), 201);
    expectFailure(await merge(), 409);
    // Approved, then the content changes: the approval is outdated and does not count.
    h.clock.advance(1000);
    expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 201);
    await edit(author, space.id, cr.id, 'late change');
    expectFailure(await merge(), 409);
    h.clock.advance(1000);
    expectOk(await reviewer.rest('POST', `${path}/reviews`, { status: 'approved' }), 201);
    const merged = await merge();
    expectOk(merged);
    expect(merged.body.result).toBe('merge');
    expect(expectOk(await admin.rest('GET', path)).status).toBe('merged');
  });

  it('rules off by default, and with type none', async () => {
    const { admin, space, path } = await setup();
    expectOk(await admin.rest('PATCH', `/v1/spaces/${space.id}`, { mergeRules: { type: 'none' } }), 200, 'updateSpaceById');
    expectOk(await admin.rest('POST', `${path}/merge`), 200, 'mergeChangeRequest');
  });
});

const OPS: RefusalOp<{ s: string; c: string; r: string; u: string }>[] = [
  {
    name: 'request reviewers',
    rest: ({ s, c, u }) => ['POST', `${crPath(s, c)}/requested-reviewers`, { users: [u] }],
    gql: ({ s, c, u }) => ['mutation($s: String!, $c: String!, $u: String!) { requestChangeRequestReviewers(spaceId: $s, changeRequestId: $c, users: [$u]) { users { kind } } }', { s, c, u }],
    refuse: 'not an editor',
  },
  {
    name: 'list requested reviewers',
    rest: ({ s, c }) => ['GET', `${crPath(s, c)}/requested-reviewers`],
    gql: ({ s, c }) => ['query($s: String!, $c: String!) { changeRequestRequestedReviewers(spaceId: $s, changeRequestId: $c) { count } }', { s, c }],
  },
  {
    name: 'remove a requested reviewer',
    rest: ({ s, c, u }) => ['DELETE', `${crPath(s, c)}/requested-reviewers/${u}`],
    gql: ({ s, c, u }) => ['mutation($s: String!, $c: String!, $u: String!) { removeChangeRequestRequestedReviewer(spaceId: $s, changeRequestId: $c, userId: $u) }', { s, c, u }],
    refuse: 'not an editor',
  },
  {
    name: 'submit a review',
    rest: ({ s, c }) => ['POST', `${crPath(s, c)}/reviews`, { status: 'approved' }],
    gql: ({ s, c }) => ['mutation($s: String!, $c: String!) { submitChangeRequestReview(spaceId: $s, changeRequestId: $c, status: "approved") { id } }', { s, c }],
    refuse: 'not a reviewer',
  },
  {
    name: 'list reviews',
    rest: ({ s, c }) => ['GET', `${crPath(s, c)}/reviews`],
    gql: ({ s, c }) => ['query($s: String!, $c: String!) { changeRequestReviews(spaceId: $s, changeRequestId: $c) { count } }', { s, c }],
  },
  {
    name: 'get a review',
    rest: ({ s, c, r }) => ['GET', `${crPath(s, c)}/reviews/${r}`],
    gql: ({ s, c, r }) => ['query($s: String!, $c: String!, $r: String!) { changeRequestReview(spaceId: $s, changeRequestId: $c, reviewId: $r) { id } }', { s, c, r }],
  },
];

refusalMatrix(OPS, {
  h,
  setup: async () => {
    const w = await setup();
    expectOk(await w.author.rest('POST', `${w.path}/requested-reviewers`, { users: [w.reviewer.userId] }));
    const review = expectOk(await w.reviewer.rest('POST', `${w.path}/reviews`, { status: 'approved' }), 201);
    return { ...w, review };
  },
  ids: (w) => ({ s: w.space.id, c: w.cr.id, r: w.review.id, u: w.reviewer.userId }),
  unknown: { s: 'unknownSpace00000001' },
  // Asking for reviews: the author or an editor (a commenter is refused); reviewing: the review level.
  forbidden: async (w, refuse) => ({ callers: refuse === 'not a reviewer' ? [w.commenter, w.author] : [w.commenter, w.reader] }),
  unchanged: async (w) => {
    expect((await h.db.changeRequestReview.findMany({ where: { changeRequestId: w.cr.id } })).map((r) => r.id)).toEqual([w.review.id]);
    expect((await h.db.changeRequestRequestedReviewer.findMany({ where: { changeRequestId: w.cr.id } })).map((r) => r.userId)).toEqual([w.reviewer.userId]);
  },
});
