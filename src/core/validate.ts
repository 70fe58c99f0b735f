import { BadRequestError } from './errors.ts';

/**
 * Input checks beyond what GraphQL types express (lengths, patterns, bounds). Each throws a 400 that
 * names the field, so REST and GraphQL callers learn exactly what to fix.
 */
export function checkLength(field: string, value: string | null | undefined, min: number, max: number): void {
  if (value === undefined || value === null) return;
  const length = [...value].length;
  if (length < min || length > max) {
    const bounds = min > 0 ? `between ${min} and ${max} characters` : `at most ${max} characters`;
    throw new BadRequestError(`Invalid "${field}": must be ${bounds} (got ${length})`);
  }
}

export function checkPattern(field: string, value: string | null | undefined, pattern: RegExp, hint?: string): void {
  if (value === undefined || value === null) return;
  if (!pattern.test(value)) {
    throw new BadRequestError(`Invalid "${field}": must match ${hint ?? pattern.source}`);
  }
}

export function checkRange(field: string, value: number | null | undefined, min: number, max: number): void {
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BadRequestError(`Invalid "${field}": must be an integer between ${min} and ${max}`);
  }
}

export function checkArraySize(field: string, value: unknown[] | null | undefined, min: number, max: number): void {
  if (value === undefined || value === null) return;
  if (value.length < min || value.length > max) {
    throw new BadRequestError(`Invalid "${field}": must contain between ${min} and ${max} entries`);
  }
}

/** GraphQL cannot tell "absent" from "null" for non-null types; this rejects an explicit null there. */
export function rejectNull(field: string, value: unknown): void {
  if (value === null) throw new BadRequestError(`Invalid "${field}": must not be null`);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}
