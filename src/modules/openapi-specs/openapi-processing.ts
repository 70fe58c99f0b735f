import type { OpenAPISpecErrorCode, Prisma } from '../../generated/prisma/client.ts';
import { enqueueJob } from '../../jobs/job-queue.ts';
import type { JobHandler } from '../../jobs/job-runner.ts';
import { newId } from '../../lib/ids.ts';
import { addressRule, SafeFetchError, SafeFetcher } from '../../lib/safe-fetch.ts';
import { OpenApiParseError, readOpenApiDocument } from './openapi-document.ts';

/**
 * Processing a spec, in the background (src/jobs/): `pending` once its source changed, `progress` while
 * a job fetches (through the safe fetcher: timeouts, size cap, no private addresses) and parses it,
 * `complete` after — with `lastProcessErrorCode` when it failed:
 * - FETCH_TIMEOUT: the URL did not answer within FETCH_TIMEOUT_MS;
 * - FETCH_ERROR: any other failure to fetch it (unreachable, an error status, too large, a refused address);
 * - PARSE_ERROR: the text is not JSON or YAML, or not a valid OpenAPI 3.0/3.1 or Swagger 2.0 document.
 * A processed document that differs from the last version is kept as a new version. A failure of the
 * source is an answer, not a job failure: the job is done; only unexpected errors are retried.
 */
export const PROCESS_SPEC_JOB = 'openapi.process';

/** Enqueues the processing of a spec, in the caller's transaction (one waiting job per spec). */
export function enqueueSpecProcessing(tx: Prisma.TransactionClient, specId: string, now: Date) {
  return enqueueJob(tx, { kind: PROCESS_SPEC_JOB, key: `${PROCESS_SPEC_JOB}:${specId}`, payload: { specId } }, now);
}

const fetchErrorCode = (error: SafeFetchError): OpenAPISpecErrorCode => (error.code === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR');

export const processSpecJob: JobHandler = async (payload: { specId: string }, { db, config, clock, signal }) => {
  const spec = await db.openAPISpec.findUnique({ where: { id: payload.specId }, include: { source: true, lastVersion: { select: { hash: true } } } });
  if (!spec) return; // deleted meanwhile
  const generation = spec.sourceGeneration;
  await db.openAPISpec.updateMany({ where: { id: spec.id, sourceGeneration: generation }, data: { processingState: 'progress' } });

  let code: OpenAPISpecErrorCode | null = null;
  let message = '';
  let text = spec.source?.text ?? '';
  if (spec.sourceUrl) {
    const fetcher = new SafeFetcher({ ...config.fetch, allowsAddress: addressRule(config.fetch.allowPrivate) });
    try {
      text = new TextDecoder().decode((await fetcher.fetch(spec.sourceUrl, { signal })).body);
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      [code, message] = [fetchErrorCode(error), error.message];
    } finally {
      await fetcher.close();
    }
  }
  if (!code) {
    try {
      const parsed = await readOpenApiDocument(text);
      if (parsed.hash !== spec.lastVersion?.hash) {
        const versionId = newId();
        await db.$transaction([
          db.openAPISpecVersion.create({ data: { id: versionId, specId: spec.id, version: parsed.version, hash: parsed.hash, document: parsed.json, createdAt: clock.now() } }),
          db.openAPISpec.update({ where: { id: spec.id }, data: { lastVersionId: versionId } }),
        ]);
      }
    } catch (error) {
      if (!(error instanceof OpenApiParseError)) throw error;
      [code, message] = ['PARSE_ERROR', error.message];
    }
  }
  const now = clock.now();
  const finished = await db.openAPISpec.updateMany({
    where: { id: spec.id, sourceGeneration: generation },
    data: {
      processingState: 'complete',
      lastProcessedAt: now,
      lastProcessErrorCode: code,
      lastProcessedErrors: code ? [{ message }] : [],
    },
  });
  // The source changed while this ran: process the new one.
  if (finished.count === 0) return { again: now };
};
