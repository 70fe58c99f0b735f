import type { Context } from '../../core/context.ts';
import type { ContentSource } from '../content/index.ts';
import { findChangeRequest, spaceForChangeRequests } from './change-request.service.ts';

/** The revision of a change request (by ID or number) of a space the caller may read. */
export async function changeRequestContentSource(ctx: Context, spaceId: string, changeRequestId: string): Promise<ContentSource> {
  const { space } = await spaceForChangeRequests(ctx, spaceId);
  const changeRequest = await findChangeRequest(ctx, space.id, changeRequestId, {
    select: { id: true, number: true, revisionId: true, revisionInitialId: true, revisionMergedAncestorId: true },
  });
  return {
    space,
    revisionId: changeRequest.revisionId,
    changeRequest: {
      id: changeRequest.id,
      number: changeRequest.number,
      // The space revision it is based on: the last one pulled in, else the one it started from.
      baseRevisionId: changeRequest.revisionMergedAncestorId ?? changeRequest.revisionInitialId,
    },
  };
}
