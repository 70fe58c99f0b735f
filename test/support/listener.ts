import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from '../../src/http/client-errors.ts';
import { BASE, type Harness } from './harness.ts';

/**
 * The app on a real 127.0.0.1 listener, as src/server.ts serves it, and raw requests to it — by default
 * as to BASE's host (published URLs are looked up by host); a `host` header given replaces it, as sent.
 */
export async function listen(h: Harness) {
  const server: Server = createServer(h.app.handleNodeRequest);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: new URL(BASE).host, ...headers, connection: 'close', ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), headers: res.headers }));
        res.on('error', reject);
      });
      // The server may answer (431, 413) and close before reading all we send: a reset without an answer
      // is reported as status 0 (the assertions then name it).
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? setTimeout(() => resolve({ status: 0, text: error.code!, headers: {} }), 500) : reject(error)));
      req.end(body);
    });
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { send, close, port };
}
