import { viewerOf, type Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, ConflictError } from '../../core/errors.ts';
import { TRANSACTION_OPTIONS } from '../../db/client.ts';
import { isRetryableConflict } from '../../db/errors.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { parseHttpUrl, SafeFetchError } from '../../lib/safe-fetch.ts';
import { draftOf, lockSpaceAt, recordPagePathRedirects, rememberContent, writeRevision, type RevisionContent } from '../content/index.ts';
import { changeRequestPolicy } from '../change-requests/index.ts';
import { findChangeRequest, spaceForChangeRequests } from '../change-requests/index.ts';
import { addContributor, advanceChangeRequest, assertEditable } from '../change-requests/index.ts';
import { updateSearchIndex } from '../search/index.ts';
import { spaceFor } from '../content-access/index.ts';
import { addImportedContent, planImport } from './imported-content.ts';
import { crawlWebsite, StartPageError, type Crawl } from './website-crawler.ts';

/**
 * `POST /spaces/{id}/content/import` and `POST /spaces/{id}/change-requests/{cr}/content/import`: a
 * website (`source: "website"`) crawled (website-crawler.ts) and added to the content, after the
 * pages already there, as one new revision — of the space (its search index updated in the same
 * transaction) or of the change request. The crawl, and the pages' conversion to markdown, run before
 * the transaction; the transaction reads
 * the content as it is then (holding the space's or change request's row), so an import never loses a
 * write that landed while it crawled.
 */
export interface ImportInput {
  url: string;
  source: string;
}

export interface ImportResult {
  revision: string;
  importedResources: number;
  totalResources: number;
}

export const IMPORT_SOURCES = ['website'] as const;
export const MAX_URL = 2048;

function checkInput(input: ImportInput): URL {
  if (!(IMPORT_SOURCES as readonly string[]).includes(input.source)) {
    throw new BadRequestError(`Invalid "source": must be one of ${IMPORT_SOURCES.join(', ')} (got "${String(input.source).slice(0, 50)}")`);
  }
  if (input.url.length > MAX_URL) throw new BadRequestError(`Invalid "url": must be at most ${MAX_URL} characters (got ${input.url.length})`);
  try {
    return parseHttpUrl(input.url);
  } catch (err) {
    throw new BadRequestError(`Invalid "url": ${(err as SafeFetchError).message}`);
  }
}

async function crawl(ctx: Context, url: URL): Promise<Crawl> {
  try {
    return await crawlWebsite(url, ctx.config.fetch, ctx.config.imports);
  } catch (err) {
    if (err instanceof StartPageError) throw new BadRequestError(`Invalid "url": ${url.href} cannot be imported: ${err.message}`);
    throw err;
  }
}

/**
 * Runs the write of an import, again if the database rolled it back for a deadlock or serialization
 * failure: the crawl it writes is kept (the resolvers' own retry, src/graphql/database-conflicts.ts,
 * would crawl the site again).
 */
async function writeWithRetries(ctx: Context, write: (tx: Prisma.TransactionClient) => Promise<RevisionContent>) {
  for (let attempt = 1; ; attempt++) {
    try {
      rememberContent(ctx.db, await ctx.db.$transaction(write, TRANSACTION_OPTIONS));
      return;
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * (5 + Math.random() * 20)));
    }
  }
}
const WRITE_ATTEMPTS = 4;

const resultOf = (revision: string, crawled: Crawl): ImportResult => ({
  revision,
  importedResources: crawled.pages.length + crawled.images.size,
  totalResources: crawled.tried,
});

export async function importIntoSpace(ctx: Context, spaceId: string, input: ImportInput): Promise<ImportResult> {
  const url = checkInput(input);
  const { space } = await spaceFor(ctx, spaceId, 'edit');
  const crawled = await crawl(ctx, url);
  const now = ctx.clock.now();
  const plan = planImport(crawled, now);
  const revisionId = newId();
  await writeWithRetries(ctx, async (tx) => {
    // The content as it is now, its row locked: a merge landing meanwhile waits, then answers 409.
    const current = await lockSpaceAt(tx, space.id, null, () => new ConflictError(`Space "${spaceId}" was deleted while its import ran`));
    const draft = await draftOf(tx, current, ctx.db);
    addImportedContent(draft, plan);
    const content = await writeRevision(tx, { id: revisionId, spaceId: space.id, parents: [current], type: 'edits', createdById: viewerOf(ctx).user.id, createdAt: now, draft, blobs: plan.blobs });
    await tx.space.update({ where: { id: space.id }, data: { revisionId, updatedAt: now } });
    await updateSearchIndex(tx, space.id, content, ctx.db);
    await recordPagePathRedirects(tx, space.id, current, content, ctx.db);
    return content;
  });
  ctx.loaders.space.clear(space.id);
  return resultOf(revisionId, crawled);
}

export async function importIntoChangeRequest(ctx: Context, spaceId: string, changeRequestId: string, input: ImportInput): Promise<ImportResult> {
  const url = checkInput(input);
  const { space, actor } = await spaceForChangeRequests(ctx, spaceId);
  const cr = await findChangeRequest(ctx, space.id, changeRequestId);
  authorize(changeRequestPolicy, actor, 'update', cr);
  assertEditable(cr);
  const crawled = await crawl(ctx, url);
  const now = ctx.clock.now();
  const plan = planImport(crawled, now);
  const revisionId = newId();
  await writeWithRetries(ctx, async (tx) => {
    const [current] = await tx.$queryRaw<{ revisionId: string; status: typeof cr.status }[]>`
      SELECT "revisionId", "status"::text AS "status" FROM "ChangeRequest" WHERE "id" = ${cr.id} FOR NO KEY UPDATE`;
    assertEditable({ number: cr.number, status: current.status });
    const draft = await draftOf(tx, current.revisionId, ctx.db);
    addImportedContent(draft, plan);
    const content = await writeRevision(tx, { id: revisionId, spaceId: space.id, parents: [current.revisionId], type: 'edits', createdById: viewerOf(ctx).user.id, createdAt: now, draft, blobs: plan.blobs });
    await advanceChangeRequest(tx, cr, current.revisionId, { revisionId, updatedAt: now });
    await addContributor(tx, cr.id, viewerOf(ctx).user.id, now);
    return content;
  });
  return resultOf(revisionId, crawled);
}
