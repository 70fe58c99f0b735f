import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { restErrorBody } from './refusal.ts';

/**
 * Requests Node's HTTP parser refuses before any handler sees them — a request line and headers over
 * its 16 KiB limit (a URL of 100,000 characters, say), or bytes that are not HTTP — get the API's error
 * body too, rather than Node's bare status line: `431` for the size, `400` for the rest. There is no
 * `Request` to answer yet, so the answer is written on the socket, its body from refusal.ts
 * (`restErrorBody`, the one place that knows its shape). The connection is then closed, as Node does:
 * its state after a parse error is unknown.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    const message = tooLarge ? 'The request line and headers exceed 16 KiB' : 'The request is not valid HTTP';
    const body = JSON.stringify(restErrorBody(status, message));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** `host` or `host:port`, the host a name, an IPv4 address or a bracketed IPv6 one (RFC 9110 §7.2). */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::(\d{1,5}))?$/;

/**
 * Whether a `Host` header names a host this server can build a request URL from. The Node request is
 * turned into a fetch `Request` from `http://<Host><path>` before any of our code runs; a Host such as
 * `a b` or `127.0.0.1:4000:99999` made that throw (a 500 on every route), and one holding `/`, `?`, `#`
 * or `@` would change the path or add a user to the URL.
 */
export function validHostHeader(host: string | undefined): boolean {
  if (host === undefined) return true;
  const match = HOST_HEADER.exec(host);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  try {
    return new URL(`http://${host}/`).pathname === '/';
  } catch {
    return false;
  }
}

/**
 * Answers a request whose `Host` is not a valid host with a 400 and the API's error body (true), before
 * the pipeline sees it; false for every other request.
 */
export function refuseInvalidHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (validHostHeader(req.headers.host)) return false;
  const body = JSON.stringify(restErrorBody(400, 'Invalid "Host" header: a host name or address, with an optional port, is expected'));
  res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
  return true;
}
