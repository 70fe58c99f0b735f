import type { CustomFieldType } from '../../generated/prisma/client.ts';
import { BadRequestError } from '../../core/errors.ts';

/**
 * The type set of custom fields and how a value of each type is checked and stored. Pure functions:
 * no Prisma, no GraphQL. Values are stored (JSONB) and returned as strings, except multi-select,
 * whose value is a list of option strings.
 */

/** API spelling (REST JSON and GraphQL alike) → Prisma enum member. */
const TYPE_BY_NAME: Record<string, CustomFieldType> = {
  text: 'text',
  number: 'number',
  boolean: 'boolean',
  select: 'select',
  'multi-select': 'multi_select',
  date: 'date',
  url: 'url',
};
export const CUSTOM_FIELD_TYPE_NAMES = Object.keys(TYPE_BY_NAME);

export function parseFieldType(value: string): CustomFieldType {
  const type = Object.hasOwn(TYPE_BY_NAME, value) ? TYPE_BY_NAME[value] : undefined;
  if (!type) throw new BadRequestError(`Invalid "type": must be ${CUSTOM_FIELD_TYPE_NAMES.map((n) => `"${n}"`).join(', ')}`);
  return type;
}

export function fieldTypeName(type: CustomFieldType): string {
  return type === 'multi_select' ? 'multi-select' : type;
}

export function hasOptions(type: CustomFieldType): boolean {
  return type === 'select' || type === 'multi_select';
}

export const MAX_TEXT_VALUE = 10_000;
export const MAX_URL_VALUE = 2048;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A stored value: a string, or the selected options of a multi-select field. */
export type StoredValue = string | string[];

export interface FieldForValue {
  name: string;
  type: CustomFieldType;
  options: string[];
}

/**
 * Checks `value` against the field's type and options and returns what to store; `null` means "no
 * value" (clear it). Errors name `values.<field name>` as sent in the body.
 */
export function normalizeValue(field: FieldForValue, value: unknown): StoredValue | null {
  if (value === null) return null;
  const invalid = (why: string) => new BadRequestError(`Invalid "values.${field.name}.value": ${why}`);
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw invalid('must be a string');
      if ([...value].length > MAX_TEXT_VALUE) throw invalid(`must be at most ${MAX_TEXT_VALUE} characters`);
      return value;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'string' && NUMBER.test(value) && Number.isFinite(Number(value))) return value;
      throw invalid('must be a finite number (a JSON number or a decimal string such as "12.5")');
    case 'boolean':
      if (typeof value === 'boolean') return String(value);
      if (value === 'true' || value === 'false') return value;
      throw invalid('must be true or false');
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
      const date = new Date(Date.UTC(y, mo - 1, d));
      if (!m || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
        throw invalid('must be a calendar date written YYYY-MM-DD');
      }
      return value as string;
    }
    case 'url':
      if (typeof value !== 'string' || !isHttpUrl(value)) throw invalid(`must be an absolute http(s) URL of at most ${MAX_URL_VALUE} characters`);
      return value;
    case 'select':
      if (typeof value !== 'string' || !field.options.includes(value)) throw invalid(`must be one of the options ${list(field.options)}`);
      return value;
    case 'multi_select': {
      if (!Array.isArray(value)) throw invalid('must be an array of options');
      const unknown = value.find((v) => typeof v !== 'string' || !field.options.includes(v));
      if (unknown !== undefined) throw invalid(`${JSON.stringify(unknown)} is not one of the options ${list(field.options)}`);
      if (new Set(value).size !== value.length) throw invalid('must not repeat an option');
      // No option selected is the same as no value.
      return value.length ? (value as string[]) : null;
    }
  }
}

function list(options: string[]): string {
  return options.map((o) => JSON.stringify(o)).join(', ');
}

function isHttpUrl(value: string): boolean {
  if (value.length > MAX_URL_VALUE) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A stored value after the field's options changed: what remains of it, or null when nothing does. */
export function pruneToOptions(type: CustomFieldType, value: unknown, options: string[]): StoredValue | null {
  if (type === 'select') return typeof value === 'string' && options.includes(value) ? value : null;
  if (type === 'multi_select' && Array.isArray(value)) {
    const kept = value.filter((v): v is string => typeof v === 'string' && options.includes(v));
    return kept.length ? kept : null;
  }
  return value as StoredValue;
}
