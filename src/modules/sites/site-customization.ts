import { Ajv } from 'ajv';
import type { Prisma, Site } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { BadRequestError } from '../../core/errors.ts';
import { siteCustomization } from './published-site.ts';
import { siteFor } from './site-access.ts';
import { visitorSite } from './site-visitors.ts';

/**
 * A site's customization (GitBook's SiteCustomizationSettings): what the last PUT stored, over GitBook's
 * defaults (published-site.ts), so every key GitBook requires is always there. A PUT replaces it whole,
 * as GitBook's does: the body must hold every required key, with the types, colours and choices GitBook
 * allows (checked with Ajv before anything is stored; 400 naming the first wrong field).
 */

/** A stored customization is at most this big (serialized). */
export const MAX_CUSTOMIZATION_BYTES = 64 * 1024;

const hex = { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' };
const themed = { type: 'object', required: ['light', 'dark'], additionalProperties: false, properties: { light: hex, dark: hex } };
const text = (maxLength: number) => ({ type: 'string', maxLength });
const choice = (...values: string[]) => ({ type: 'string', enum: values });
const loose = { type: 'object' };
const flag = { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } };

const INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'styling',
    'internationalization',
    'favicon',
    'header',
    'footer',
    'themes',
    'feedback',
    'ai',
    'advancedCustomization',
    'trademark',
    'externalLinks',
    'pagination',
    'pageActions',
    'privacyPolicy',
    'socialPreview',
    'socialAccounts',
    'insights',
  ],
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 128 },
    localizedTitle: { type: 'object', maxProperties: 50, additionalProperties: text(128) },
    styling: {
      type: 'object',
      required: ['theme', 'primaryColor', 'infoColor', 'successColor', 'warningColor', 'dangerColor', 'corners', 'depth', 'links', 'font', 'monospaceFont', 'codeTheme', 'background', 'icons', 'sidebar', 'search'],
      properties: {
        theme: choice('clean', 'muted', 'bold', 'gradient'),
        primaryColor: themed,
        tint: { type: 'object', required: ['color'], properties: { color: themed } },
        infoColor: themed,
        successColor: themed,
        warningColor: themed,
        dangerColor: themed,
        corners: choice('straight', 'rounded', 'circular'),
        depth: choice('subtle', 'flat'),
        links: choice('default', 'accent'),
        font: { oneOf: [text(50), loose] },
        headingFont: { oneOf: [text(50), loose] },
        monospaceFont: text(50),
        codeTheme: { type: 'object', required: ['default', 'openapi'], properties: { default: loose, openapi: loose } },
        background: text(50),
        icons: text(50),
        sidebar: { type: 'object', required: ['background', 'list'], properties: { background: text(50), list: text(50) } },
        search: text(50),
      },
    },
    internationalization: { type: 'object', required: ['locale'], properties: { locale: text(10) } },
    favicon: loose,
    header: { type: 'object', properties: { preset: text(50), links: { type: 'array', maxItems: 50, items: loose } } },
    footer: { type: 'object', properties: { groups: { type: 'array', maxItems: 50, items: loose } } },
    announcement: { type: 'object', properties: { enabled: { type: 'boolean' }, message: text(1024), style: choice('info', 'warning', 'danger', 'success') } },
    themes: { type: 'object', required: ['default', 'toggeable'], properties: { default: choice('light', 'dark', 'system'), toggeable: { type: 'boolean' } } },
    pdf: flag,
    feedback: flag,
    aiSearch: flag,
    ai: loose,
    advancedCustomization: flag,
    trademark: flag,
    externalLinks: { type: 'object', properties: { target: choice('self', 'blank') } },
    pagination: flag,
    pageActions: loose,
    privacyPolicy: loose,
    socialPreview: loose,
    socialAccounts: { type: 'array', maxItems: 50, items: loose },
    insights: loose,
  },
} as const;

const ajv = new Ajv({ allErrors: false });
const validInput = ajv.compile(INPUT_SCHEMA);

/** The keys a site space may override (GitBook's overrideSiteSpaceCustomizationById body). */
const OVERRIDABLE_KEYS = [
  'title',
  'localizedTitle',
  'styling',
  'internationalization',
  'favicon',
  'announcement',
  'header',
  'footer',
  'themes',
  'feedback',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
] as const;

/**
 * The override body's schema, derived from the PUT's: the overridable keys, and `null` allowed wherever
 * a value is (a null resets that override to the site's value). Groups of settings (styling, header …)
 * require nothing; a closed value (a light/dark colour pair) stays whole.
 */
function overridable(schema: Record<string, unknown>): Record<string, unknown> {
  const { required, properties, ...rest } = schema as { required?: unknown; properties?: Record<string, Record<string, unknown>> };
  const out: Record<string, unknown> = { ...rest, ...(schema.additionalProperties === false && required ? { required } : {}) };
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, overridable(value)]));
  // Nullable by its type where it has one, so that a refusal names the field's own rule, not "must be null".
  if (typeof out.type !== 'string') return { anyOf: [{ type: 'null' }, out] };
  return { ...out, type: [out.type, 'null'], ...(Array.isArray(out.enum) ? { enum: [...out.enum, null] } : {}) };
}
const OVERRIDE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(OVERRIDABLE_KEYS.map((key) => [key, overridable(INPUT_SCHEMA.properties[key] as Record<string, unknown>)])),
};
const validOverride = ajv.compile(OVERRIDE_SCHEMA);
export const OVERRIDE_KEYS: readonly string[] = OVERRIDABLE_KEYS;

/** A 400 naming the first field Ajv refused. */
function refusal(validate: { errors?: { instancePath: string; params: unknown; message?: string }[] | null }): BadRequestError {
  const error = validate.errors![0];
  const field = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : ((error.params as { missingProperty?: string }).missingProperty ?? 'body');
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  return new BadRequestError(`Invalid "${missing && error.instancePath ? `${field}.${missing}` : field}": ${error.message}`);
}

/** The settings' top-level keys other than `title` (the body fields of the PUT, each a JSON value). */
export const SETTINGS_KEYS = Object.keys(INPUT_SCHEMA.properties).filter((key) => key !== 'title');

/** Deep merge of plain objects: `over` wins; arrays and other values are replaced whole. */
export function merged(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    const plain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
    out[key] = plain(current) && plain(value) ? merged(current, value) : value;
  }
  return out;
}

/** The customization a site shows: its stored settings over the defaults, with when they were last set. */
export function customizationOf(site: Pick<Site, 'title' | 'customization' | 'customizationUpdatedAt'>): Record<string, unknown> {
  const stored = (site.customization ?? {}) as Record<string, unknown>;
  return {
    ...merged(siteCustomization(site), stored),
    ...(site.customizationUpdatedAt ? { updatedAt: site.customizationUpdatedAt.toISOString() } : {}),
  };
}

/** The customization a site space shows: its site's, with the site space's overrides over it. */
export function siteSpaceCustomizationOf(
  site: Pick<Site, 'title' | 'customization' | 'customizationUpdatedAt'>,
  siteSpace: { customization: unknown } | null | undefined,
): Record<string, unknown> {
  const base = customizationOf(site);
  const override = siteSpace?.customization as Record<string, unknown> | null | undefined;
  return override ? merged(base, override) : base;
}

/**
 * A stored override with a PATCH applied: objects merge key by key, a `null` removes that override
 * (the site's value shows again), anything else replaces it. Empty objects left behind are dropped.
 */
export function patchedOverride(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const plain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (plain(value)) {
      const inner = patchedOverride(plain(out[key]) ? (out[key] as Record<string, unknown>) : {}, value);
      if (Object.keys(inner).length > 0) out[key] = inner;
      else delete out[key];
    } else out[key] = value;
  }
  return out;
}

/** Checks a site-space override body (before anything is read): its size, then its schema. */
export function checkOverride(patch: Record<string, unknown>): void {
  if (JSON.stringify(patch).length > MAX_CUSTOMIZATION_BYTES) throw new BadRequestError(`Invalid customization: at most ${MAX_CUSTOMIZATION_BYTES} bytes`);
  if (!validOverride(patch)) throw refusal(validOverride);
}

export async function getSiteCustomization(ctx: Context, organizationId: string, siteId: string) {
  // A site's reader (its apiToken) reads its customization too, as the published profile shows it.
  if (ctx.siteReader) return customizationOf(await visitorSite(ctx, organizationId, siteId));
  return customizationOf((await siteFor(ctx, organizationId, siteId, 'read')).site);
}

export async function updateSiteCustomization(ctx: Context, organizationId: string, siteId: string, input: Record<string, unknown>) {
  const settings = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined && value !== null));
  if (JSON.stringify(settings).length > MAX_CUSTOMIZATION_BYTES) throw new BadRequestError(`Invalid customization: at most ${MAX_CUSTOMIZATION_BYTES} bytes`);
  if (!validInput(settings)) throw refusal(validInput);
  const { site } = await siteFor(ctx, organizationId, siteId, 'edit');
  const updated = await ctx.db.site.update({
    where: { id: site.id },
    data: { customization: settings as Prisma.InputJsonValue, customizationUpdatedAt: ctx.clock.now() },
  });
  return customizationOf(updated);
}
