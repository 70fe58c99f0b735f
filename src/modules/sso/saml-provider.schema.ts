import DataLoader from 'dataloader';
import { keyedLoader } from '../../core/loaders.ts';
import type { Team } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import type { Context } from '../../core/context.ts';
import { RoleEnum } from '../organizations/index.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { restNull } from '../../graphql/rest-fields.ts';
import { TeamRef } from '../teams/index.ts';
import { isProviderActive } from './saml-provider.policy.ts';
import {
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  listSsoLogins,
  MAX_CERTIFICATE,
  MAX_ENTITY_ID,
  MAX_LABEL,
  MAX_SSO_URL,
  updateSamlProvider,
} from './saml-provider.service.ts';
import { serviceProviderUrls } from './saml.urls.ts';

/**
 * `defaultTeam` is a plain column (no foreign key: deleting the team leaves the provider in place and
 * the field then reads as absent), so it is batched here: one query per request for a whole list.
 */
function teamLoader(ctx: Context): DataLoader<string, Team | null> {
  return keyedLoader(ctx, 'SamlProvider.defaultTeam', () =>
    new DataLoader<string, Team | null>(async (ids) => {
      const rows = await ctx.db.team.findMany({ where: { id: { in: [...ids] } } });
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    }),
  );
}

const SamlProviderStatusEnum = builder.enumType('SamlProviderStatus', {
  description: 'active: the provider can sign people in; pending: it still lacks its ssoURL or certificate',
  values: ['active', 'pending'] as const,
});

const SamlServiceProvider = builder.simpleObject('SamlServiceProvider', {
  description: "This server's own SAML endpoints for the provider, to configure in the identity provider",
  fields: (t) => ({
    acsURL: t.string({ extensions: constrained({ format: 'uri' }), description: 'Assertion Consumer Service URL: where the identity provider POSTs its SAMLResponse' }),
    startURL: t.string({ extensions: constrained({ format: 'uri' }), description: 'Where a sign-in page sends the browser to start signing in with this provider' }),
    entityID: t.string({ extensions: constrained({ format: 'uri' }), description: 'Entity ID (audience) of this server for the provider; its URL serves our SP metadata' }),
  }),
});

const SamlProviderUrls = builder.simpleObject('SamlProviderUrls', {
  fields: (t) => ({ location: t.string({ description: 'URL of the SAML provider in the API', extensions: constrained({ format: 'uri' }) }) }),
});

export const SamlProviderRef = builder.prismaObject('SamlProvider', {
  description: 'A SAML identity provider through which people sign in to the organization and join it',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['saml-provider'] }), resolve: () => 'saml-provider' }),
    id: t.exposeID('id'),
    label: t.exposeString('label', { description: 'Name shown on the sign-in page (1..30)' }),
    ssoURL: t.exposeString('ssoURL', { nullable: true, description: "The identity provider's single sign-on URL" }),
    entityID: t.exposeString('entityID', { nullable: true, description: "The identity provider's entity ID (its assertions' Issuer)" }),
    certificate: t.exposeString('certificate', {
      nullable: true,
      description: "The identity provider's X.509 signing certificate (PEM)",
    }),
    defaultTeam: t.field({
      type: TeamRef,
      nullable: true,
      description: 'Team that people joining through this provider are added to',
      resolve: async (p, _args, ctx) => {
        if (!p.defaultTeamId) return null;
        const team = await teamLoader(ctx).load(p.defaultTeamId);
        return team && team.organizationId === p.organizationId ? team : null;
      },
    }),
    defaultRole: t.expose('defaultRole', {
      type: RoleEnum,
      nullable: true,
      description: 'Role of people joining through this provider; null for guests',
      extensions: restNull,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    status: t.field({ type: SamlProviderStatusEnum, resolve: (p) => (isProviderActive(p) ? 'active' : 'pending') }),
    service: t.field({ type: SamlServiceProvider, resolve: (p, _args, ctx) => serviceProviderUrls(ctx.config.publicUrl, p.id) }),
    urls: t.field({
      type: SamlProviderUrls,
      resolve: (p, _args, ctx) => ({ location: `${ctx.config.apiUrl}/orgs/${p.organizationId}/saml/${p.id}` }),
    }),
  }),
});

export const SamlProviderList = listType('SamlProvider', SamlProviderRef);

const SsoProviderLogin = builder.simpleObject('SsoProviderLogin', {
  description: 'A way to sign in to the organization, as a sign-in page shows it',
  fields: (t) => ({
    id: t.id({ description: 'ID of the SAML provider' }),
    label: t.string({ description: 'Name of the provider' }),
    startURL: t.string({ extensions: constrained({ format: 'uri' }), description: 'Where to send the browser to sign in with this provider' }),
  }),
});
const SsoProviderLoginList = builder.simpleObject('SsoProviderLoginList', {
  fields: (t) => ({ items: t.field({ type: [SsoProviderLogin] }) }),
});

const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));
const providerPath = builder.args((t) => ({
  ...organizationPath,
  samlProviderId: t.string({ required: true, description: 'ID of the SAML provider' }),
}));
/** The provider's label (saml-provider.service.ts checks the trimmed label too). */
const labelConstraints = constrained({ minLength: 1, maxLength: MAX_LABEL });
const providerFields = builder.args((t) => ({
  entityID: t.string({
    description: `The identity provider's entity ID (max ${MAX_ENTITY_ID}); null clears it`,
    extensions: constrained({ minLength: 1, maxLength: MAX_ENTITY_ID }),
  }),
  certificate: t.string({
    description: `The identity provider's X.509 signing certificate in PEM form (max ${MAX_CERTIFICATE}); null clears it`,
    extensions: constrained({ minLength: 1, maxLength: MAX_CERTIFICATE }),
  }),
  ssoURL: t.string({
    description: `The identity provider's single sign-on URL (absolute http(s), max ${MAX_SSO_URL}); null clears it`,
    extensions: constrained({ minLength: 1, maxLength: MAX_SSO_URL, format: 'uri' }),
  }),
  defaultTeam: t.string({ description: 'ID of a team of this organization that joining people are added to; null clears it' }),
  defaultRole: t.field({ type: RoleEnum, description: 'Role of people joining through the provider; null (or absent) for guests' }),
}));

builder.queryFields((t) => ({
  organizationSamlProviders: t.field({
    type: SamlProviderList,
    description: 'SAML providers of an organization, in creation order (admins only)',
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx) => listSamlProviders(ctx, organizationId, args),
  }),
  organizationSamlProvider: t.field({
    type: SamlProviderRef,
    description: 'One SAML provider of an organization (admins only)',
    args: providerPath,
    resolve: (_root, args, ctx) => getSamlProvider(ctx, args.organizationId, args.samlProviderId),
  }),
  organizationSsoProviderLogins: t.field({
    type: SsoProviderLoginList,
    description: "The organization's sign-in choices: label and start URL of each SAML provider (any member)",
    args: organizationPath,
    resolve: (_root, args, ctx) => listSsoLogins(ctx, args.organizationId),
  }),
}));

builder.mutationFields((t) => ({
  createOrganizationSamlProvider: t.field({
    type: SamlProviderRef,
    description: 'Add a SAML provider to an organization (admins only)',
    args: {
      ...organizationPath,
      label: t.arg.string({ required: true, description: `Name shown on the sign-in page (1..${MAX_LABEL})`, extensions: labelConstraints }),
      ...providerFields,
    },
    resolve: (_root, { organizationId, ...input }, ctx) => createSamlProvider(ctx, organizationId, input),
  }),
  updateOrganizationSamlProvider: t.field({
    type: SamlProviderRef,
    description: 'Change a SAML provider (admins only); absent fields are kept, null clears the optional ones',
    args: {
      ...providerPath,
      label: t.arg.string({ description: `Name shown on the sign-in page (1..${MAX_LABEL})`, extensions: labelConstraints }),
      ...providerFields,
    },
    resolve: (_root, { organizationId, samlProviderId, ...input }, ctx) => updateSamlProvider(ctx, organizationId, samlProviderId, input),
  }),
  deleteOrganizationSamlProvider: t.boolean({
    description: 'Remove a SAML provider (admins only); people who joined through it stay members',
    args: providerPath,
    resolve: (_root, args, ctx) => deleteSamlProvider(ctx, args.organizationId, args.samlProviderId),
  }),
}));

/** Importing this module registers its schema; its REST routes come with it. */
