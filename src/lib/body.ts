/**
 * Reading request bodies without trusting their size. A body is read chunk by chunk and abandoned as
 * soon as it passes the cap, so a 50 MB upload costs at most the cap in memory, not 50 MB; a
 * `Content-Length` above the cap is refused before reading anything.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than the limit of ${maxBytes} bytes`);
  }
}

/** Throws BodyTooLargeError when the declared length alone is over the cap. */
export function checkDeclaredLength(request: Request, maxBytes: number): void {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(maxBytes);
}

/** The body as UTF-8 text, at most `maxBytes` bytes of it (BodyTooLargeError beyond). */
export async function readTextWithLimit(request: Request, maxBytes: number): Promise<string> {
  checkDeclaredLength(request, maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop the upload here: the rest is never buffered.
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * How deeply a parsed JSON value nests (a scalar is 0, `[]` or `{}` is 1), measured without recursion
 * so that a hostile 50,000-level document cannot overflow the stack while being measured. Stops
 * counting once past `stopAt`.
 */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, level]);
    }
  }
  return deepest;
}
