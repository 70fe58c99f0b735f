import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';

/**
 * A site's authentication backend as GitBook's visitor authentication expects one (test/reader, issue 25):
 * a tiny node:http server on 127.0.0.1. The site sends a reader who has no valid token to its fallback
 * URL, `GET /login?location=<path on the site>`; the backend "signs them in" at once, signs an HS256 JWT
 * with the site's private key (the claims the test chose for that site), and sends the reader back to
 * `<site origin><location>?jwt_token=<token>`.
 */
export interface VisitorAuthBackend {
  /** The fallback URL to give the site (`PATCH …/publishing/auth { fallbackURL }`). */
  loginUrl: string;
  origin: string;
  /** Serves the site whose pages live under `basePath` (`/s/<org>/<site>`): its key and the claims it signs. */
  register(basePath: string, site: { privateKey: string; claims?: Record<string, unknown> }): { claims: Record<string, unknown> };
  /** The `location` values asked for, in order. */
  logins: string[];
  close(): Promise<void>;
}

export async function startVisitorAuthBackend(options: { siteOrigin: string; now?: () => Date; ttlSeconds?: number }): Promise<VisitorAuthBackend> {
  const sites = new Map<string, { privateKey: string; claims: Record<string, unknown> }>();
  const logins: string[] = [];
  const now = options.now ?? (() => new Date());
  const ttl = options.ttlSeconds ?? 3600;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://backend.invalid');
      const location = url.searchParams.get('location') ?? '';
      if (req.method !== 'GET' || url.pathname !== '/login' || !location.startsWith('/') || location.startsWith('//')) {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
        return;
      }
      logins.push(location);
      // The site whose base path is the longest prefix of the location.
      const base = [...sites.keys()].filter((b) => location === b || location.startsWith(`${b}/`)).sort((a, b) => b.length - a.length)[0];
      if (!base) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Unknown site');
        return;
      }
      const site = sites.get(base)!;
      const seconds = Math.floor(now().getTime() / 1000);
      const token = await new SignJWT({ ...site.claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(seconds)
        .setExpirationTime(seconds + ttl)
        .sign(new TextEncoder().encode(site.privateKey));
      const back = new URL(location, options.siteOrigin);
      back.searchParams.set('jwt_token', token);
      res.writeHead(302, { Location: back.toString(), 'Cache-Control': 'no-store' }).end();
    })().catch((error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    loginUrl: `${origin}/login`,
    logins,
    register(basePath, site) {
      const entry = { privateKey: site.privateKey, claims: { ...(site.claims ?? {}) } };
      sites.set(basePath.replace(/\/+$/, ''), entry);
      return entry;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
