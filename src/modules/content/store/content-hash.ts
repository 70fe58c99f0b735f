import { createHash } from 'node:crypto';

/**
 * The address of a page body or of file bytes: the SHA-256 of the markdown's UTF-8 bytes (or of the
 * bytes), in lowercase hex. The migration that introduced content addressing computes the same in SQL
 * (`encode(sha256(convert_to(markdown, 'UTF8')), 'hex')`): keep the two in step.
 */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
