import type { TranslationSettings } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, can } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkArraySize, checkLength, rejectNull } from '../../core/validate.ts';
import { organizationActor } from '../organizations/index.ts';
import { translationSettingsPolicy, type TranslationActor } from './translation-settings.policy.ts';

/** GitBook's `TranslationLanguage` codes. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

const ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

export interface TranslationSettingsInput {
  title?: string | null;
  languages?: string[] | null;
}

async function actorOf(ctx: Context, organizationId: string): Promise<TranslationActor> {
  const [actor, access] = await Promise.all([organizationActor(ctx, organizationId), ctx.loaders.organizationAccess.load(organizationId)]);
  return { ...actor, organizationSso: access?.organization.sso ?? false };
}

function checkInput(input: TranslationSettingsInput) {
  rejectNull('title', input.title);
  if (input.title === undefined) throw new BadRequestError('Invalid "title": required');
  checkLength('title', input.title, 1, 100);
  rejectNull('languages', input.languages);
  checkArraySize('languages', input.languages, 0, TRANSLATION_LANGUAGES.length);
  const repeated = input.languages?.find((l, i) => input.languages!.indexOf(l) !== i);
  if (repeated) throw new BadRequestError(`Invalid "languages": "${repeated}" is listed twice`);
}

/** A translation settings record as answered, with what the caller may do with it. */
export type TranslationSettingsView = TranslationSettings & { canEdit: boolean };

const view = (actor: TranslationActor, settings: TranslationSettings): TranslationSettingsView => ({
  ...settings,
  canEdit: can(translationSettingsPolicy, actor, 'edit', settings),
});

async function find(ctx: Context, organizationId: string, id: string, action: 'read' | 'edit') {
  const [actor, settings] = await Promise.all([actorOf(ctx, organizationId), ctx.db.translationSettings.findFirst({ where: { id, organizationId } })]);
  authorize(translationSettingsPolicy, actor, 'read', settings ?? { id });
  if (!settings) throw new NotFoundError(translationSettingsPolicy.notFound({ id }));
  authorize(translationSettingsPolicy, actor, action, settings);
  return { actor, settings };
}

export async function listTranslationSettings(ctx: Context, organizationId: string, args: ListArgs) {
  const actor = await actorOf(ctx, organizationId);
  authorize(translationSettingsPolicy, actor, 'read', { id: '' });
  const page = await paginate({ args, keys: ORDER, where: { organizationId }, model: ctx.db.translationSettings });
  return { ...page, items: page.items.map((s) => view(actor, s)) };
}

export async function getTranslationSettings(ctx: Context, organizationId: string, id: string) {
  const { actor, settings } = await find(ctx, organizationId, id, 'read');
  return view(actor, settings);
}

export async function createTranslationSettings(ctx: Context, organizationId: string, input: TranslationSettingsInput) {
  checkInput(input);
  const actor = await actorOf(ctx, organizationId);
  authorize(translationSettingsPolicy, actor, 'edit', { id: '' });
  const now = ctx.clock.now();
  const settings = await ctx.db.translationSettings.create({
    data: { id: newId(), organizationId, title: input.title!, languages: input.languages ?? [], createdAt: now, updatedAt: now },
  });
  return view(actor, settings);
}

/** PUT: `title` required; `languages` replaced when given, kept when absent. */
export async function replaceTranslationSettings(ctx: Context, organizationId: string, id: string, input: TranslationSettingsInput) {
  checkInput(input);
  const { actor } = await find(ctx, organizationId, id, 'edit');
  const settings = await ctx.db.translationSettings.update({
    where: { id },
    data: { title: input.title!, languages: input.languages ?? undefined, updatedAt: ctx.clock.now() },
  });
  return view(actor, settings);
}

export async function deleteTranslationSettings(ctx: Context, organizationId: string, id: string): Promise<boolean> {
  await find(ctx, organizationId, id, 'edit');
  await ctx.db.translationSettings.deleteMany({ where: { id } });
  return true;
}
