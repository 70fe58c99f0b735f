import type { Organization, Role } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { viewerOf } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, rethrowDatabaseError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs } from '../../core/pagination.ts';
import { rejectNull } from '../../core/validate.ts';
import { organizationForAdmin } from './organization.access.ts';
import { organizationCreationPolicy } from './organization.policy.ts';

export const MAX_EMAIL_DOMAINS = 100;

/*
 * The title's length and pattern, the e-mail domains' count and form and the hostname's length and
 * pattern are declared on the fields (organization.schema.ts) and checked before a resolver runs: they
 * are not checked again here. What is left is what a declaration cannot say.
 */

/** E-mail domains as stored: lower case, each once (the field's format already took each for a host name). */
function normalizeEmailDomains(domains: string[] | null | undefined): string[] | undefined {
  if (domains === undefined) return undefined;
  rejectNull('emailDomains', domains);
  return [...new Set(domains!.map((d) => d.trim().toLowerCase()))];
}

export interface CreateOrganizationInput {
  title: string;
  emailDomains?: string[] | null;
}

/** Creates an organization with the caller as its first admin, in one transaction. */
export async function createOrganization(ctx: Context, input: CreateOrganizationInput): Promise<Organization> {
  const viewer = viewerOf(ctx);
  authorize(organizationCreationPolicy, { instanceAdmin: ctx.instanceAdmin, scopeOrganizationId: viewer.scopeOrganizationId }, 'create', null);
  rejectNull('title', input.title);
  const emailDomains = normalizeEmailDomains(input.emailDomains ?? []);
  const id = newId();
  const now = ctx.clock.now();
  const [organization] = await ctx.db.$transaction([
    ctx.db.organization.create({ data: { id, title: input.title, emailDomains, createdAt: now } }),
    ctx.db.member.create({ data: { organizationId: id, userId: viewer.user.id, role: 'admin', joinedAt: now } }),
  ]);
  return organization;
}

/** Organizations the caller is a member of (only its own for a scoped token), newest membership first. */
export async function listOrganizationsForViewer(ctx: Context, args: ListArgs) {
  const viewer = viewerOf(ctx);
  const page = await paginate({
    args,
    keys: [
      { field: 'joinedAt', direction: 'desc', type: 'date' },
      { field: 'organizationId', direction: 'desc' },
    ],
    where: {
      userId: viewer.user.id,
      disabled: false,
      ...(viewer.scopeOrganizationId ? { organizationId: viewer.scopeOrganizationId } : {}),
    },
    findMany: (q) => ctx.db.member.findMany({ ...q, include: { organization: true } }),
    count: (q) => ctx.db.member.count(q),
  });
  for (const m of page.items) ctx.loaders.viewerMembership.prime(m.organizationId, m);
  return { ...page, items: page.items.map((m) => m.organization) };
}

/** At most this many organizations are listed for one e-mail domain. */
export const MAX_EMAIL_DOMAIN_ORGANIZATIONS = 1000;

/** Organizations that declare `emailDomain`, shown only to callers whose own e-mail is on that domain. */
export async function organizationsForEmailDomain(ctx: Context, emailDomain: string): Promise<Organization[]> {
  const viewer = viewerOf(ctx);
  // A host name (the field's declared format): compared as stored, in lower case.
  const domain = emailDomain.trim().toLowerCase();
  const viewerDomain = viewer.user.email.split('@')[1]?.toLowerCase();
  if (viewerDomain !== domain) return [];
  return ctx.db.organization.findMany({
    where: { emailDomains: { has: domain }, ...(viewer.scopeOrganizationId ? { id: viewer.scopeOrganizationId } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: MAX_EMAIL_DOMAIN_ORGANIZATIONS,
  });
}

export interface UpdateOrganizationInput {
  organizationId: string;
  title?: string | null;
  emailDomains?: string[] | null;
  hostname?: string | null;
  defaultRole?: Role | null;
  defaultContent?: { type: string; site: string } | null;
  logo?: string | null;
  sso?: boolean | null;
  ai?: boolean | null;
  inviteLinks?: boolean | null;
}

export async function updateOrganization(ctx: Context, input: UpdateOrganizationInput): Promise<Organization> {
  const { organization } = await organizationForAdmin(ctx, input.organizationId);
  rejectNull('title', input.title);
  const emailDomains = normalizeEmailDomains(input.emailDomains);
  if (input.logo !== undefined && input.logo !== null && !isHttpUrl(input.logo)) {
    throw new BadRequestError('Invalid "logo": must be an absolute http(s) URL');
  }
  for (const flag of ['sso', 'ai', 'inviteLinks'] as const) rejectNull(flag, input[flag]);
  // `hostname`'s length and pattern, and `defaultContent.type`, are declared on the field (checked before this runs).
  if (input.defaultContent) {
    const site = await ctx.db.site.findFirst({ where: { id: input.defaultContent.site, organizationId: organization.id }, select: { id: true } });
    if (!site) throw new BadRequestError(`Invalid "defaultContent.site": no site "${input.defaultContent.site}" in this organization`);
  }
  try {
    return await ctx.db.organization.update({
      where: { id: organization.id },
      data: {
        title: input.title ?? undefined,
        emailDomains,
        hostname: input.hostname,
        defaultRole: input.defaultRole,
        defaultContentSiteId: input.defaultContent === null ? null : input.defaultContent?.site,
        logoURL: input.logo,
        sso: input.sso ?? undefined,
        ai: input.ai ?? undefined,
        inviteLinks: input.inviteLinks ?? undefined,
      },
    });
  } catch (error) {
    rethrowDatabaseError(error, { unique: `Hostname "${input.hostname}" is already taken` });
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.length <= 2048;
  } catch {
    return false;
  }
}
