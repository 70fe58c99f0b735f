import type { Prisma } from '../../generated/prisma/client.ts';
import type { Context } from '../../core/context.ts';
import { authorize, can } from '../../core/authorization.ts';
import { newId } from '../../lib/ids.ts';
import { paginate, type ListArgs, type SortKey } from '../../core/pagination.ts';
import { checkLength } from '../../core/validate.ts';
import { organizationActor, organizationFor } from '../organizations/index.ts';
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

