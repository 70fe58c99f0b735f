import type { Database } from '../db/client.ts';
import type { HttpRoute } from './request-state.ts';

/** `GET /healthz`: 200 when the database answers, 503 otherwise. No token, not rate limited: load balancers poll it. */
export function healthRoute(database: Pick<Database, 'ping'>): HttpRoute {
  return {
    path: '/healthz',
    methods: ['GET', 'HEAD'],
    door: 'operations',
    access: 'public',
    rateLimit: 'none',
    handle: async () => {
      const ok = await database.ping();
      return Response.json({ status: ok ? 'ok' : 'unavailable' }, { status: ok ? 200 : 503 });
    },
  };
}
