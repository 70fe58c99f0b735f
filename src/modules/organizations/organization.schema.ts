import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { RoleEnum } from './role.schema.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { monthlyPeriodEnd } from '../../lib/billing-period.ts';
import { graphOnly, restNull } from '../../graphql/rest-fields.ts';
import { can } from '../../core/authorization.ts';
import { organizationPolicy } from './organization.policy.ts';
import {
  createOrganization,
  listOrganizationsForViewer,
  MAX_EMAIL_DOMAIN_ORGANIZATIONS,
  MAX_EMAIL_DOMAINS,
  organizationsForEmailDomain,
  updateOrganization,
} from './organization.service.ts';
import { organizationActor, organizationForMember, organizationPermissions } from './organization.access.ts';

/** A domain name of two labels or more (`example.com`), any case: an e-mail's part after the `@`. */
const DOMAIN_PATTERN = '^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$';

const OrganizationUrls = builder.simpleObject('OrganizationUrls', {
  fields: (t) => ({
    location: t.string({ extensions: constrained({ format: 'uri' }) }),
    app: t.string({ extensions: constrained({ format: 'uri' }) }),
    logo: t.string(),
  }),
});
const OrganizationPermissions = builder.simpleObject('OrganizationPermissions', {
  fields: (t) => ({
    admin: t.boolean({ description: 'Can manage the organization: settings, members, teams' }),
    createContent: t.boolean({ description: 'Can create spaces and collections' }),
  }),
});
const OrganizationTrial = builder.simpleObject('OrganizationTrial', {
  fields: (t) => ({
    status: t.string(),
    count: t.int({ description: 'Number of trials used' }),
    endDate: t.field({ type: 'DateTime', nullable: true }),
    decision: t.string({ nullable: true }),
  }),
});
const OrganizationBilling = builder.simpleObject('OrganizationBilling', {
  fields: (t) => ({
    interval: t.string(),
    endDate: t.field({
      type: 'DateTime',
      nullable: true,
      description: "End of the current billing period: monthly periods counted from the organization's creation",
    }),
    hasPaymentFailed: t.boolean(),
    isScheduledToCancel: t.boolean(),
  }),
});
const OrganizationBlocked = builder.simpleObject('OrganizationBlocked', { fields: (t) => ({ reason: t.string() }) });
const DefaultContent = builder.simpleObject('OrganizationDefaultContent', {
  fields: (t) => ({ type: t.string({ extensions: constrained({ enum: ['site'] }) }), site: t.string() }),
});

export const OrganizationRef = builder.prismaObject('Organization', {
  description: 'An organization: owns members, teams, collections, spaces and sites',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['organization'] }), resolve: () => 'organization' }),
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    emailDomains: t.exposeStringList('emailDomains'),
    hostname: t.exposeString('hostname', { nullable: true }),
    type: t.exposeString('type'),
    useCase: t.exposeString('useCase', { nullable: true }),
    communityType: t.exposeString('communityType', { nullable: true }),
    defaultRole: t.expose('defaultRole', { type: RoleEnum, nullable: true, extensions: restNull }),
    defaultContent: t.field({
      type: DefaultContent,
      nullable: true,
      resolve: (o) => (o.defaultContentSiteId ? { type: 'site', site: o.defaultContentSiteId } : null),
    }),
    sso: t.exposeBoolean('sso'),
    ai: t.exposeBoolean('ai'),
    inviteLinks: t.exposeBoolean('inviteLinks'),
    plan: t.exposeString('plan'),
    billing: t.field({
      type: OrganizationBilling,
      nullable: true,
      description: 'Only shown to members of the organization',
      // Monthly periods counted from the organization's creation; endDate ends the current one.
      resolve: async (o, _args, ctx) =>
        can(organizationPolicy, await organizationActor(ctx, o.id), 'seeBilling', o)
          ? { interval: 'monthly', endDate: monthlyPeriodEnd(o.createdAt, ctx.clock.now()), hasPaymentFailed: false, isScheduledToCancel: false }
          : null,
    }),
    urls: t.field({
      type: OrganizationUrls,
      resolve: (o, _args, ctx) => ({
        location: `${ctx.config.apiUrl}/orgs/${o.id}`,
        app: `${ctx.config.appUrl}/o/${o.id}/`,
        logo: o.logoURL ?? `${ctx.config.appUrl}/o/${o.id}/logo.png`,
      }),
    }),
    trial: t.field({ type: OrganizationTrial, resolve: () => ({ status: 'notapplicable', count: 0, endDate: null, decision: null }) }),
    customHostname: t.exposeString('customHostname', { nullable: true }),
    blocked: t.field({
      type: OrganizationBlocked,
      nullable: true,
      resolve: (o) => (o.blockedReason ? { reason: o.blockedReason } : null),
    }),
    permissions: t.field({
      type: OrganizationPermissions,
      resolve: (o, _args, ctx) => organizationPermissions(ctx, o),
    }),
  }),
});

export const OrganizationList = listType('Organization', OrganizationRef);

builder.queryFields((t) => ({
  organizations: t.field({
    type: OrganizationList,
    description: 'Organizations the authenticated user is a member of',
    args: listArgs,
    resolve: (_root, args, ctx) => listOrganizationsForViewer(ctx, args),
  }),
  organization: t.field({
    type: OrganizationRef,
    description: 'An organization the authenticated user is a member of',
    args: { organizationId: t.arg.string({ required: true, description: 'ID of the organization' }) },
    resolve: async (_root, args, ctx) => (await organizationForMember(ctx, args.organizationId)).organization,
  }),
  organizationsForEmailDomain: t.field({
    type: builder.simpleObject('EmailDomainOrganizations', {
      // listSize: how long the list can be, for the GraphQL list-item limit (graphql/limits.ts).
      fields: (f) => ({ organizations: f.field({ type: [OrganizationRef], extensions: { listSize: MAX_EMAIL_DOMAIN_ORGANIZATIONS } }) }),
    }),
    description: "Organizations that declare this e-mail domain (only for callers whose e-mail is on it)",
    args: {
      emailDomain: t.arg.string({ required: true, description: 'E-mail domain, e.g. example.com', extensions: constrained({ maxLength: 253, format: 'hostname', pattern: DOMAIN_PATTERN }) }),
    },
    resolve: async (_root, args, ctx) => ({ organizations: await organizationsForEmailDomain(ctx, args.emailDomain) }),
  }),
}));

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  fields: (t) => ({
    type: t.string({ required: true, extensions: constrained({ enum: ['site'] }) }),
    site: t.string({ required: true }),
  }),
});

/** An organization's title: 2..255 characters, no leading or trailing white space (organization.service.ts). */
const titleConstraints = constrained({ minLength: 2, maxLength: 255, pattern: '^\\S([\\s\\S]*\\S)?$' });
/** At most MAX_EMAIL_DOMAINS e-mail domains, each a domain name. */
const emailDomainsConstraints = constrained({ maxItems: MAX_EMAIL_DOMAINS, items: { format: 'hostname', pattern: DOMAIN_PATTERN } });

builder.mutationFields((t) => ({
  createOrganization: t.field({
    type: OrganizationRef,
    description: 'Create an organization; the caller becomes its admin',
    args: {
      title: t.arg.string({ required: true, description: 'Name of the organization (2..255)', extensions: titleConstraints }),
      emailDomains: t.arg.stringList({ description: 'E-mail domains whose users may find and join the organization', extensions: emailDomainsConstraints }),
    },
    resolve: (_root, args, ctx) => createOrganization(ctx, args),
  }),
  updateOrganization: t.field({
    type: OrganizationRef,
    description: 'Update an organization (admins only)',
    args: {
      organizationId: t.arg.string({ required: true, description: 'ID of the organization' }),
      title: t.arg.string({ description: 'Name (2..255)', extensions: titleConstraints }),
      emailDomains: t.arg.stringList({ description: 'E-mail domains of the organization', extensions: emailDomainsConstraints }),
      hostname: t.arg.string({
        description: 'Default hostname (3..32)',
        extensions: constrained({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' }),
      }),
      defaultRole: t.arg({ type: RoleEnum, description: 'Role given to new members; null = guest' }),
      defaultContent: t.arg({ type: DefaultContentInput, description: '`{ type: "site", site }` or null' }),
      logo: t.arg.string({ description: 'URL of the logo', extensions: constrained({ format: 'uri', maxLength: 2048 }) }),
      sso: t.arg.boolean({ description: 'Enforce SSO organization-wide' }),
      ai: t.arg.boolean({ description: 'Enable AI features' }),
      inviteLinks: t.arg.boolean({ description: 'Enable invite links' }),
    },
    resolve: (_root, args, ctx) => updateOrganization(ctx, args),
  }),
}));

