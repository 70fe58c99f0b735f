import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, can } from '../../core/authorization.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { ForbiddenError, NotFoundError } from '../../core/errors.ts';
import { organizationActor, organizationFor, organizationPolicy } from '../organizations/index.ts';
import { ADMIN_ROLES } from '../organizations/index.ts';
import { integrationFor } from './integration.service.ts';
import { installationTargetPolicy, integrationPolicy } from './integration.policy.ts';

/**
 * Installations (GitBook's account-level ones): an organization's admin installs an integration they
 * can see in their organization — a private one only in the organization that owns it —, once (installing it again answers the installation there is). The
 * integration's owners see all its installations; other callers those of organizations they administer.
 */
const ORDER: SortKey[] = [
  { field: 'createdAt', direction: 'asc', type: 'date' },
  { field: 'id', direction: 'asc' },
];

export async function installIntegration(ctx: Context, name: string, input: { organization: string }) {
  const integration = await integrationFor(ctx, name, 'read');
  const { organization } = await organizationFor(ctx, input.organization, 'update');
  authorize(installationTargetPolicy, { organizationId: organization.id }, 'install', integration);
  const now = ctx.clock.now();
  return ctx.db.integrationInstallation.upsert({
    where: { integrationName_organizationId: { integrationName: integration.name, organizationId: organization.id } },
    create: { id: newId(), integrationName: integration.name, organizationId: organization.id, installedById: ctx.viewer?.user.id ?? null, createdAt: now, updatedAt: now },
    update: {},
  });
}

export async function listInstallations(ctx: Context, name: string, args: ListArgs & { externalId?: string | null }) {
  checkLength('externalId', args.externalId, 1, 200);
  const integration = await integrationFor(ctx, name, 'read');
  const owner = can(integrationPolicy, await organizationActor(ctx, integration.organizationId), 'manage', integration);
  const where: Prisma.IntegrationInstallationWhereInput = { integrationName: integration.name };
  if (!owner) {
    // Not its owner: the installations of the organizations the caller administers.
    const userId = ctx.viewer?.user.id ?? '';
    where.organization = { members: { some: { userId, role: { in: [...ADMIN_ROLES] }, disabled: false } } };
  }
  if (args.externalId) where.externalIds = { has: args.externalId };
  return paginate({ args, keys: ORDER, where, model: ctx.db.integrationInstallation });
}


const installationNotFound = (installationId: string) => new NotFoundError(`Installation "${installationId}" not found`);

/**
 * One installation (GitBook's getIntegrationInstallationById, where its `urls.location` points), to those
 * who see it in the list: the integration's owners, and the admins of the organization it is installed
 * in. Anyone else gets the 404 of an unknown ID.
 */
export async function getInstallation(ctx: Context, name: string, installationId: string) {
  checkLength('installationId', installationId, 1, 64);
  const integration = await integrationFor(ctx, name, 'read');
  const installation = await ctx.db.integrationInstallation.findFirst({ where: { id: installationId, integrationName: integration.name } });
  if (!installation) throw installationNotFound(installationId);
  const [owner, organization, member] = await Promise.all([
    organizationActor(ctx, integration.organizationId).then((actor) => can(integrationPolicy, actor, 'manage', integration)),
    ctx.loaders.organization.load(installation.organizationId),
    organizationActor(ctx, installation.organizationId),
  ]);
  if (!owner && !(organization && can(organizationPolicy, member, 'update', organization))) throw installationNotFound(installationId);
  return installation;
}

/**
 * GitBook's uninstallIntegration: the organization's admins remove the installation (its owners see it,
 * but it is not theirs to remove: 403). The row goes; installing again makes a new one.
 */
export async function uninstallIntegration(ctx: Context, name: string, installationId: string): Promise<true> {
  const installation = await getInstallation(ctx, name, installationId);
  const organization = await ctx.loaders.organization.load(installation.organizationId);
  const member = await organizationActor(ctx, installation.organizationId);
  if (!organization || !can(organizationPolicy, member, 'update', organization)) {
    throw new ForbiddenError("Only the admins of the installation's organization can uninstall it");
  }
  await ctx.db.integrationInstallation.deleteMany({ where: { id: installation.id } });
  return true;
}
