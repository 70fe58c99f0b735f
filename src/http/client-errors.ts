import type { Server } from 'node:http';
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
