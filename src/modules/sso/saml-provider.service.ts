import { X509Certificate } from 'node:crypto';
import type { Prisma, Role, SamlProvider } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength, rejectNull } from '../../core/validate.ts';
import { organizationForMember } from '../organizations/index.ts';
import { samlProviderPolicy } from './saml-provider.policy.ts';
import { serviceProviderUrls } from './saml.urls.ts';

/** Creation order, served by the (organizationId, createdAt, id) index. */
export const SAML_PROVIDER_SORT: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];
export const MAX_LABEL = 30;
export const MAX_ENTITY_ID = 1024;
export const MAX_CERTIFICATE = 10_000;
export const MAX_SSO_URL = 2048;

/** Exactly one PEM certificate block: no private key or other material is ever stored by mistake. */
const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n\t ]+-----END CERTIFICATE-----$/;

async function organizationForProviders(ctx: Context, organizationId: string, action: 'read' | 'create' | 'update' | 'delete') {
  const access = await organizationForMember(ctx, organizationId);
  authorize(samlProviderPolicy, access.actor, action, { organizationId });
  return access;
}

async function findProvider(ctx: Context, organizationId: string, samlProviderId: string): Promise<SamlProvider> {
  const provider = await ctx.db.samlProvider.findFirst({ where: { id: samlProviderId, organizationId } });
  if (!provider) throw new NotFoundError(`SAML provider "${samlProviderId}" not found in this organization`);
  return provider;
}

/** The trimmed certificate when it is one parseable X.509 certificate in PEM form; 400 otherwise. */
export function checkCertificate(value: string): string {
  checkLength('certificate', value, 1, MAX_CERTIFICATE);
  const pem = value.trim();
  const invalid = new BadRequestError('Invalid "certificate": must be one X.509 certificate in PEM form ("-----BEGIN CERTIFICATE-----" …)');
  if (!PEM_CERTIFICATE.test(pem)) throw invalid;
  try {
    new X509Certificate(pem);
  } catch {
    throw invalid;
  }
  return pem;
}

function checkSsoUrl(value: string): string {
  checkLength('ssoURL', value, 1, MAX_SSO_URL);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestError('Invalid "ssoURL": must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequestError('Invalid "ssoURL": must be an absolute http(s) URL');
  return value;
}

async function checkDefaultTeam(ctx: Context, organizationId: string, teamId: string): Promise<string> {
  const team = await ctx.db.team.findFirst({ where: { id: teamId, organizationId }, select: { id: true } });
  if (!team) throw new BadRequestError(`Invalid "defaultTeam": no team "${teamId}" in this organization`);
  return team.id;
}

export interface SamlProviderInput {
  label?: string | null;
  entityID?: string | null;
  certificate?: string | null;
  ssoURL?: string | null;
  defaultTeam?: string | null;
  defaultRole?: Role | null;
}

/**
 * Checks an input and returns the columns to write: `undefined` leaves a column as it is, `null` clears
 * an optional one. The label is required on create and can never be cleared.
 */
async function providerData(ctx: Context, organizationId: string, input: SamlProviderInput) {
  rejectNull('label', input.label);
  const label = input.label?.trim();
  checkLength('label', label, 1, MAX_LABEL);
  checkLength('entityID', input.entityID, 1, MAX_ENTITY_ID);
  return {
    label,
    entityID: input.entityID,
    certificate: typeof input.certificate === 'string' ? checkCertificate(input.certificate) : input.certificate,
    ssoURL: typeof input.ssoURL === 'string' ? checkSsoUrl(input.ssoURL) : input.ssoURL,
    defaultTeamId: typeof input.defaultTeam === 'string' ? await checkDefaultTeam(ctx, organizationId, input.defaultTeam) : input.defaultTeam,
    defaultRole: input.defaultRole,
  };
}

export async function listSamlProviders(ctx: Context, organizationId: string, args: ListArgs) {
  await organizationForProviders(ctx, organizationId, 'read');
  return paginate({
    args,
    keys: SAML_PROVIDER_SORT,
    where: { organizationId },
    model: ctx.db.samlProvider,
  });
}

export async function getSamlProvider(ctx: Context, organizationId: string, samlProviderId: string) {
  await organizationForProviders(ctx, organizationId, 'read');
  return findProvider(ctx, organizationId, samlProviderId);
}

export async function createSamlProvider(ctx: Context, organizationId: string, input: SamlProviderInput & { label: string }) {
  await organizationForProviders(ctx, organizationId, 'create');
  const data = await providerData(ctx, organizationId, input);
  const now = ctx.clock.now();
  return ctx.db.samlProvider.create({
    data: {
      id: newId(),
      organizationId,
      label: data.label!,
      entityID: data.entityID ?? null,
      certificate: data.certificate ?? null,
      ssoURL: data.ssoURL ?? null,
      defaultTeamId: data.defaultTeamId ?? null,
      defaultRole: data.defaultRole ?? null,
      createdAt: now,
      updatedAt: now,
    },
  });
}

export async function updateSamlProvider(ctx: Context, organizationId: string, samlProviderId: string, input: SamlProviderInput) {
  await organizationForProviders(ctx, organizationId, 'update');
  await findProvider(ctx, organizationId, samlProviderId);
  const data = await providerData(ctx, organizationId, input);
  return ctx.db.samlProvider.update({ where: { id: samlProviderId }, data: { ...data, updatedAt: ctx.clock.now() } });
}

export async function deleteSamlProvider(ctx: Context, organizationId: string, samlProviderId: string): Promise<boolean> {
  await organizationForProviders(ctx, organizationId, 'delete');
  const { count } = await ctx.db.samlProvider.deleteMany({ where: { id: samlProviderId, organizationId } });
  if (count === 0) throw new NotFoundError(`SAML provider "${samlProviderId}" not found in this organization`);
  return true;
}

export interface SsoLogin {
  id: string;
  label: string;
  startURL: string;
}

/** What a sign-in page offers: each provider's label and where to start signing in with it. */
export async function listSsoLogins(ctx: Context, organizationId: string): Promise<{ items: SsoLogin[] }> {
  // Any member lists them: that is reading the organization.
  await organizationForMember(ctx, organizationId);
  const providers = await ctx.db.samlProvider.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, label: true },
  });
  return {
    items: providers.map((p) => ({ id: p.id, label: p.label, startURL: serviceProviderUrls(ctx.config.publicUrl, p.id).startURL })),
  };
}
