import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { stringEnumScalar } from '../../graphql/string-enum.ts';
import {
  createTranslationSettings,
  deleteTranslationSettings,
  getTranslationSettings,
  listTranslationSettings,
  replaceTranslationSettings,
  TRANSLATION_LANGUAGES,
  type TranslationSettingsView,
} from './translation-settings.service.ts';

/** Codes such as `pt-br` hold a "-": a string scalar, as the API spells them. */
const TranslationLanguageScalar = stringEnumScalar('TranslationLanguage', TRANSLATION_LANGUAGES, 'A language code');

const Permissions = builder.simpleObject('TranslationSettingsPermissions', { fields: (t) => ({ edit: t.boolean({ description: 'Whether the caller may change them' }) }) });
const Urls = builder.simpleObject('TranslationSettingsUrls', {
  fields: (t) => ({ location: t.string({ description: 'The settings in the API', extensions: constrained({ format: 'uri' }) }) }),
});

const TranslationSettingsRef = builder.objectRef<TranslationSettingsView>('TranslationSettings').implement({
  description: "An organization's translation settings: a title and the languages its content is translated into",
  fields: (t) => ({
    object: t.string({ resolve: () => 'translation-settings' }),
    id: t.exposeString('id'),
    title: t.exposeString('title', { description: '1..100 characters' }),
    languages: t.field({ type: [TranslationLanguageScalar], resolve: (s) => s.languages as (typeof TRANSLATION_LANGUAGES)[number][] }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
    permissions: t.field({
      type: Permissions,
      resolve: (s) => ({ edit: s.canEdit }),
    }),
    urls: t.field({
      type: Urls,
      resolve: (s, _args, ctx) => ({ location: `${ctx.config.apiUrl}/orgs/${s.organizationId}/translations/${s.id}` }),
    }),
  }),
});
const TranslationSettingsList = listType('TranslationSettings', TranslationSettingsRef);

const organizationPath = builder.args((t) => ({ organizationId: t.string({ required: true, description: 'ID of the organization' }) }));
const settingsPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
  translationSettingsId: t.string({ required: true, description: 'ID of the translation settings' }),
}));
const settingsInput = builder.args((t) => ({
  title: t.string({ required: true, description: '1..100 characters', extensions: constrained({ minLength: 1, maxLength: 100 }) }),
  languages: t.field({
    type: [TranslationLanguageScalar],
    description: 'Languages to translate into (PUT: absent keeps them)',
    extensions: constrained({ maxItems: TRANSLATION_LANGUAGES.length }),
  }),
}));

builder.queryFields((t) => ({
  organizationTranslations: t.field({
    type: TranslationSettingsList,
    description: "An organization's translation settings, oldest first (any member)",
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx) => listTranslationSettings(ctx, organizationId, args),
  }),
  translationSettings: t.field({
    type: TranslationSettingsRef,
    description: 'Translation settings (any member)',
    args: settingsPath,
    resolve: (_root, args, ctx) => getTranslationSettings(ctx, args.organizationId, args.translationSettingsId),
  }),
}));

builder.mutationFields((t) => ({
  createTranslationSettings: t.field({
    type: TranslationSettingsRef,
    description: 'Create translation settings (organization admins)',
    args: { ...organizationPath, ...settingsInput },
    resolve: (_root, { organizationId, title, languages }, ctx) => createTranslationSettings(ctx, organizationId, { title, languages: languages as string[] | null | undefined }),
  }),
  updateTranslationSettings: t.field({
    type: TranslationSettingsRef,
    description: 'Replace translation settings (organization admins)',
    args: { ...settingsPath, ...settingsInput },
    resolve: (_root, { organizationId, translationSettingsId, title, languages }, ctx) =>
      replaceTranslationSettings(ctx, organizationId, translationSettingsId, { title, languages: languages as string[] | null | undefined }),
  }),
  deleteTranslationSettings: t.boolean({
    description: 'Delete translation settings (organization admins)',
    args: settingsPath,
    resolve: (_root, args, ctx) => deleteTranslationSettings(ctx, args.organizationId, args.translationSettingsId),
  }),
}));
