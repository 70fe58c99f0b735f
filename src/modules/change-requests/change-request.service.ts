import type { ChangeRequestStatus, Prisma, Space } from '../../generated/prisma/client.ts';
import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.ts';
import { paginate, withRelations, type ItemQuery, type ListArgs } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { organizationForMember } from '../organizations/index.ts';
import { spaceFor, visibleSpacesWhere } from '../content-access/index.ts';
import { changeRequestPolicy, type ChangeRequestActor } from './change-request.policy.ts';

export const MAX_SUBJECT = 100;

/** The space and the caller as the change-request policy sees them (the space must be readable). */
export async function spaceForChangeRequests(ctx: Context, spaceId: string) {
  const { space, actor } = await spaceFor(ctx, spaceId, 'read');
  return { space, actor: { ...actor, userId: viewerOf(ctx).user.id } satisfies ChangeRequestActor };
}

/** The filter of a change request of the space, by ID or by number (GitBook's `changeRequestId` accepts both). */
export function changeRequestWhere(spaceId: string, idOrNumber: string): Prisma.ChangeRequestWhereInput {
  const number = /^[1-9][0-9]{0,8}$/.test(idOrNumber) ? Number(idOrNumber) : null;
  return number === null ? { id: idOrNumber, spaceId } : { spaceId, OR: [{ id: idOrNumber }, { number }] };
}

export const changeRequestNotFound = (idOrNumber: string) => new NotFoundError(`Change request "${idOrNumber}" not found`);

/** A change request of the space, by ID or by number. */
export async function findChangeRequest(ctx: Context, spaceId: string, idOrNumber: string, query?: ItemQuery) {
  const found = await ctx.db.changeRequest.findFirst({ relationLoadStrategy: 'join', where: changeRequestWhere(spaceId, idOrNumber), ...(query as object) });
  if (!found) throw changeRequestNotFound(idOrNumber);
  return found;
}

/**
 * `check()` (an argument check of a list read with its change request in one statement) or, when it
 * refuses, a 404 first if the change request is unknown: the answer of reading the change request first.
 */
export async function unlessMissing<T>(ctx: Context, spaceId: string, idOrNumber: string, check: () => T): Promise<T> {
  try {
    return check();
  } catch (error) {
    await findChangeRequest(ctx, spaceId, idOrNumber, { select: { id: true } });
    throw error;
  }
}

/** `POST /spaces/{id}/change-requests`: a draft whose content starts as the space's current revision. */
export async function createChangeRequest(ctx: Context, spaceId: string, input: { subject?: string | null }, query?: ItemQuery) {
  checkLength('subject', input.subject, 0, MAX_SUBJECT);
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  authorize(changeRequestPolicy, actor, 'create', { id: '', createdById: null, status: 'draft' });
  if (!space.revisionId) throw new ConflictError(`Space "${spaceId}" has no content to change`);
  const revisionId = space.revisionId;
  const now = ctx.clock.now();
  const id = newId();
  await ctx.db.$transaction(async (tx) => {
    // The space row is locked until commit: numbers are unique and never reused, across instances.
    const { lastChangeRequestNumber: number } = await tx.space.update({
      where: { id: space.id },
      data: { lastChangeRequestNumber: { increment: 1 } },
      select: { lastChangeRequestNumber: true },
    });
    await tx.changeRequest.create({
      data: {
        id,
        spaceId: space.id,
        number,
        status: 'draft',
        subject: input.subject ?? '',
        createdById: actor.userId,
        revisionId,
        revisionInitialId: revisionId,
        createdAt: now,
        updatedAt: now,
        contributors: { create: { userId: actor.userId, lastEditedAt: now } },
      },
    });
  }, TRANSACTION_OPTIONS);
  return findChangeRequest(ctx, space.id, id, query);
}

/** The longest user ID a filter takes (ours are 20 characters). */
export const MAX_USER_ID = 64;
/** GitBook's ChangeRequestOrderBy: the field change requests are listed by, newest first. */
export const CHANGE_REQUEST_ORDERS = ['updatedAt', 'createdAt'] as const;
export type ChangeRequestOrderBy = (typeof CHANGE_REQUEST_ORDERS)[number];

export interface ChangeRequestListArgs extends ListArgs {
  status?: ChangeRequestStatus | null;
  creator?: string | null;
  contributor?: string | null;
  requestedReviewer?: string | null;
  /** GitBook's site topics: none exist here, so no change request is linked to one. */
  topic?: string | null;
  orderBy?: ChangeRequestOrderBy | null;
}

/**
 * `GET /spaces/{id}/change-requests`: by status (default `open`), author, contributor, requested reviewer
 * (an open review request for that user); newest first by `orderBy` (GitBook's default `updatedAt`).
 */
export async function listChangeRequests(ctx: Context, spaceId: string, args: ChangeRequestListArgs, query?: ItemQuery) {
  checkLength('requestedReviewer', args.requestedReviewer, 1, MAX_USER_ID);
  const orderBy = args.orderBy ?? 'updatedAt';
  if (!CHANGE_REQUEST_ORDERS.includes(orderBy)) throw new BadRequestError(`Invalid "orderBy": one of ${CHANGE_REQUEST_ORDERS.join(', ')}`);
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  return paginate({
    args,
    keys: [
      { field: orderBy, direction: 'desc', type: 'date' },
      { field: 'id', direction: 'desc' },
    ],
    where: {
      spaceId: space.id,
      status: args.status ?? 'open',
      ...(args.creator ? { createdById: args.creator } : {}),
      ...(args.contributor ? { contributors: { some: { userId: args.contributor } } } : {}),
      // A semi-join on ChangeRequestRequestedReviewer's (userId) index: the user's requests, then these.
      ...(args.requestedReviewer ? { requestedReviewers: { some: { userId: args.requestedReviewer } } } : {}),
      ...(args.topic ? { id: { in: [] } } : {}),
    },
    model: ctx.db.changeRequest,
    query,
  });
}

export interface OrganizationChangeRequestListArgs extends Omit<ChangeRequestListArgs, 'status'> {
  status?: ChangeRequestStatus[] | null;
  space?: string | null;
  site?: string | null;
  topic?: string | null;
  styleguideRun?: string | null;
  finding?: 'none' | 'all' | null;
}

/**
 * `GET /orgs/{id}/change-requests` (GitBook's listChangeRequestsForOrganization): the change requests of
 * every space of the organization the caller can read (the same rule as the spaces list, so a guest sees
 * those of the spaces granted to them), with the space list's filters plus `status` as a set (default
 * open), one `space`, or the spaces a `site` publishes. This server has no site topics, style-guide runs
 * or triage findings, so no change request is linked to one: filtering by a topic or a run finds none,
 * and `finding` (none: without triage's, the default; all) selects the same ones either way.
 */
export async function listOrganizationChangeRequests(ctx: Context, organizationId: string, args: OrganizationChangeRequestListArgs, query?: ItemQuery) {
  const orderBy = args.orderBy ?? 'updatedAt';
  if (!CHANGE_REQUEST_ORDERS.includes(orderBy)) throw new BadRequestError(`Invalid "orderBy": one of ${CHANGE_REQUEST_ORDERS.join(', ')}`);
  await organizationForMember(ctx, organizationId);
  const readable = await visibleSpacesWhere(ctx, organizationId);
  const linkedToNothingHere = Boolean(args.topic || args.styleguideRun); // (see ChangeRequestListArgs.topic)
  const page = await paginate({
    args,
    keys: [
      { field: orderBy, direction: 'desc', type: 'date' },
      { field: 'id', direction: 'desc' },
    ],
    where: {
      space: args.site ? { ...readable, siteSpaces: { some: { siteId: args.site } } } : readable,
      status: { in: args.status?.length ? args.status : ['open'] },
      ...(args.space ? { spaceId: args.space } : {}),
      ...(args.creator ? { createdById: args.creator } : {}),
      ...(args.contributor ? { contributors: { some: { userId: args.contributor } } } : {}),
      ...(args.requestedReviewer ? { requestedReviewers: { some: { userId: args.requestedReviewer } } } : {}),
      ...(linkedToNothingHere ? { id: { in: [] } } : {}),
    },
    model: ctx.db.changeRequest,
    // Each item's space comes joined, for the request's loaders: `outdated` compares with its revision.
    query: withRelations(query, { space: true }),
  });
  for (const item of page.items) {
    const { space } = item as unknown as { space: Space };
    ctx.loaders.space.prime(space.id, space);
  }
  return page;
}

export async function getChangeRequest(ctx: Context, spaceId: string, idOrNumber: string, query?: ItemQuery) {
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  return findChangeRequest(ctx, space.id, idOrNumber, query);
}

/** Status moves a PATCH may make: merging is `merge`'s, and merged or archived change requests stay so. */
export const SETTABLE: readonly ChangeRequestStatus[] = ['draft', 'open', 'archived'];

/**
 * `PATCH /spaces/{id}/change-requests/{cr}`: `subject` (needs `edit`) and `status` among draft, open
 * and archived (its author or an editor). A merged or archived change request is not reopened: 409.
 */
export async function updateChangeRequest(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  input: { subject?: string | null; status?: ChangeRequestStatus | null },
  query?: ItemQuery,
) {
  checkLength('subject', input.subject, 0, MAX_SUBJECT);
  if (input.status && !SETTABLE.includes(input.status)) {
    throw new BadRequestError('Invalid "status": a change request is set to draft, open or archived (merging is POST …/merge)');
  }
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const current = await findChangeRequest(ctx, space.id, idOrNumber);
  const renames = input.subject !== undefined && input.subject !== null;
  // An update naming nothing still needs the right to update: a write route never answers 200 to
  // someone who could not have written through it (and it moves `updatedAt`).
  if (renames || !input.status) authorize(changeRequestPolicy, actor, 'update', current);
  if (input.status) {
    authorize(changeRequestPolicy, actor, 'setStatus', current);
    if (current.status === 'merged' || (current.status === 'archived' && input.status !== 'archived')) {
      throw new ConflictError(`Change request #${current.number} is ${current.status}: it cannot be set to ${input.status}`);
    }
  }
  const data: Prisma.ChangeRequestUpdateInput = { updatedAt: ctx.clock.now() };
  if (input.subject !== undefined && input.subject !== null) data.subject = input.subject;
  if (input.status) data.status = input.status;
  // Only while it is still what was checked: a concurrent merge or archive wins and this answers 409.
  const { count } = await ctx.db.changeRequest.updateMany({ where: { id: current.id, status: current.status }, data: data as Prisma.ChangeRequestUpdateManyMutationInput });
  if (count === 0) throw new ConflictError(`Change request #${current.number} changed meanwhile: retry`);
  return findChangeRequest(ctx, space.id, current.id, query);
}
