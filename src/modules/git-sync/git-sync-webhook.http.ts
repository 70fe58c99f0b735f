import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppServices } from '../../core/context.ts';
import { BadRequestError, NotFoundError, UnauthenticatedError } from '../../core/errors.ts';
import { openSecret } from '../../db/instance-secrets.ts';
import type { HttpRoute } from '../../http/request-state.ts';
import { enqueueJob } from '../../jobs/job-queue.ts';
import { GIT_SYNC_JOB, WEBHOOK_PATH, WEBHOOK_SECRET_KEY, type GitRunPayload } from './git-sync.service.ts';

/**
 * `POST /git-sync/{installationId}/webhook`: a Git server's push event imports the branch the space
 * syncs with. Accepted from GitHub (`X-Hub-Signature-256`), Gitea and Forgejo (`X-Gitea-Signature`,
 * `X-Forgejo-Signature`: HMAC-SHA256 of the body with the secret) and GitLab (`X-Gitlab-Token`: the
 * secret itself), the secret made by `createGitSyncWebhook`. A wrong signature is a 401; an unknown
 * installation, or one without a secret, a 404. A push to another branch, a ping or another event is
 * answered 202 without a run, saying why.
 */
const MAX_WEBHOOK_BYTES = 5 * 1024 * 1024;
const MAX_ID = 64;

type Sender = 'github' | 'gitea' | 'gitlab';

function verifiedSender(headers: Headers, body: Uint8Array, secret: string): Sender | null {
  const same = (given: string, expected: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const hmac = () => createHmac('sha256', secret).update(body).digest('hex');
  const github = headers.get('x-hub-signature-256');
  if (github) return same(github, `sha256=${hmac()}`) ? 'github' : null;
  const gitea = headers.get('x-gitea-signature') ?? headers.get('x-forgejo-signature');
  if (gitea) return same(gitea, hmac()) ? 'gitea' : null;
  const gitlab = headers.get('x-gitlab-token');
  if (gitlab) return same(gitlab, secret) ? 'gitlab' : null;
  return null;
}

/** The event's name, as each server sends it: `push` for a push. */
function eventOf(headers: Headers): string {
  const name = headers.get('x-github-event') ?? headers.get('x-gitea-event') ?? headers.get('x-forgejo-event') ?? headers.get('x-gitlab-event') ?? '';
  return name === 'Push Hook' ? 'push' : name.toLowerCase();
}

export function gitSyncWebhookRoutes(services: AppServices): HttpRoute[] {
  const { db, clock } = services;
  return [
    {
      path: WEBHOOK_PATH,
      methods: ['POST'],
      door: 'http-route',
      access: 'public',
      maxBodyBytes: MAX_WEBHOOK_BYTES,
      async handle({ request, params }) {
        const id = decodeURIComponent(params.installationId ?? '');
        if (!id || id.length > MAX_ID) throw new NotFoundError(`No Git Sync installation "${id.slice(0, MAX_ID)}"`);
        const sync = await db.gitSync.findUnique({ where: { id }, select: { id: true, spaceId: true, ref: true, webhookSecret: true, createdById: true } });
        if (!sync?.webhookSecret) throw new NotFoundError(`No Git Sync installation "${id}" takes webhooks`);
        const body = new Uint8Array(await request.arrayBuffer());
        const secret = await openSecret(db, WEBHOOK_SECRET_KEY, sync.webhookSecret);
        if (!verifiedSender(request.headers, body, secret)) {
          throw new UnauthenticatedError('The webhook is not signed with this installation\'s secret (X-Hub-Signature-256, X-Gitea-Signature, X-Forgejo-Signature or X-Gitlab-Token)');
        }
        const event = eventOf(request.headers);
        if (event !== 'push') return Response.json({ queued: false, reason: `"${event || 'unnamed'}" events are not synced: only pushes are` }, { status: 202 });
        let ref: unknown;
        try {
          ref = (JSON.parse(new TextDecoder().decode(body)) as { ref?: unknown }).ref;
        } catch {
          throw new BadRequestError('The push event must be JSON (set the webhook\'s content type to application/json)');
        }
        if (ref !== sync.ref) return Response.json({ queued: false, reason: `a push to ${typeof ref === 'string' ? ref : 'another ref'}; this space syncs ${sync.ref}` }, { status: 202 });
        const now = clock.now();
        await db.$transaction(async (tx) => {
          await tx.gitSync.update({ where: { id: sync.id }, data: { direction: 'import', state: 'running', startedAt: now, endedAt: null, error: null, updatedAt: now } });
          const payload: GitRunPayload = { syncId: sync.id, direction: 'import', options: { userId: sync.createdById } };
          await enqueueJob(tx, { kind: GIT_SYNC_JOB, key: `git-sync:${sync.spaceId}:import`, payload: payload as never, maxAttempts: 4 }, now);
        });
        return Response.json({ queued: true }, { status: 202 });
      },
    },
  ];
}
