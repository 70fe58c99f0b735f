import { builder } from '../../graphql/builder.ts';
import { constrained, shaped } from '../../graphql/constraints.ts';
import { RoleEnum } from '../organizations/index.ts';
import { listArgs, listType } from '../../graphql/list.ts';
import { restNull } from '../../graphql/rest-fields.ts';
import { OrganizationRef } from '../organizations/index.ts';
import {
  createLinkInvite,
  deleteLinkInvite,
  getLinkInvite,
  inviteByEmail,
  joinOrganization,
  listLinkInvites,
  listViewerInvitations,
  MAX_EMAILS_PER_CALL,
  updateLinkInvite,
} from './invite.service.ts';

/** An invite link (`object: "invite"`): whoever holds its ID joins with `role`. */
export const LinkInviteRef = builder.prismaObject('LinkInvite', {
  name: 'Invite',
  description: 'An invite link to an organization',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['invite'] }), resolve: () => 'invite' }),
    id: t.exposeID('id'),
    role: t.expose('role', { type: RoleEnum, nullable: true, extensions: restNull }),
  }),
});

/** A pending e-mail invitation of the caller (where an invited user finds the ID to join with). */
export const InvitationRef = builder.prismaObject('Invite', {
  name: 'Invitation',
  description: 'An e-mail invitation to join an organization',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['invitation'] }), resolve: () => 'invitation' }),
    id: t.exposeID('id', { description: 'Pass it to POST /orgs/{organizationId}/invites/{inviteId} to join' }),
    organization: t.relation('organization', { type: OrganizationRef }),
    role: t.expose('role', { type: RoleEnum, nullable: true, extensions: restNull }),
    sso: t.exposeBoolean('sso', { description: 'The invitation must be accepted by signing in with SSO' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const InvitationResult = builder.simpleObject('InvitationResult', {
  fields: (t) => ({
    users: t.stringList({ description: 'IDs of the users invited' }),
    invited: t.int({ description: 'Number of new invitations' }),
    failedSSOEmails: t.stringList({ description: 'Addresses refused: SSO is required for them and they cannot use it' }),
  }),
});

const LinkInviteList = listType('Invite', LinkInviteRef);
const InvitationList = listType('Invitation', InvitationRef);

const organizationPath = builder.args((t) => ({
  organizationId: t.string({ required: true, description: 'ID of the organization' }),
}));
const invitePath = builder.args((t) => ({
  ...organizationPath,
  inviteId: t.string({ required: true, description: 'ID of the invite' }),
}));

builder.queryFields((t) => ({
  organizationLinkInvites: t.field({
    type: LinkInviteList,
    description: 'Invite links of an organization (admins only)',
    args: { ...organizationPath, ...listArgs },
    resolve: (_root, { organizationId, ...args }, ctx) => listLinkInvites(ctx, organizationId, args),
  }),
  organizationLinkInvite: t.field({
    type: LinkInviteRef,
    description: 'One invite link (admins only)',
    args: invitePath,
    resolve: (_root, args, ctx) => getLinkInvite(ctx, args.organizationId, args.inviteId),
  }),
  userInvitations: t.field({
    type: InvitationList,
    description: "The authenticated user's pending e-mail invitations",
    args: listArgs,
    resolve: (_root, args, ctx) => listViewerInvitations(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  inviteUsersToOrganization: t.field({
    type: InvitationResult,
    description: 'Invite people by e-mail (admins only)',
    args: {
      ...organizationPath,
      emails: t.arg.stringList({
        required: true,
        description: 'E-mail addresses (1..100, de-duplicated)',
        extensions: constrained({ minItems: 1, maxItems: MAX_EMAILS_PER_CALL, items: { format: 'email' } }),
      }),
      role: t.arg({ type: RoleEnum, description: "Role of the invitees (default: the organization's defaultRole)" }),
      sso: t.arg.boolean({ description: 'Require the invitees to sign in with SSO (default false)', extensions: constrained({ default: false }) }),
    },
    resolve: (_root, { organizationId, ...input }, ctx) => inviteByEmail(ctx, organizationId, input),
  }),
  joinOrganization: t.field({
    type: 'JSON',
    description: 'Join an organization with an e-mail invitation or an invite link; answers {}',
    // GitBook's answer: an empty object.
    extensions: shaped({ type: 'object', properties: {} }),
    args: invitePath,
    resolve: (_root, args, ctx) => joinOrganization(ctx, args.organizationId, args.inviteId),
  }),
  createOrganizationLinkInvite: t.field({
    type: LinkInviteRef,
    description: 'Create an invite link (admins only)',
    args: { ...organizationPath, role: t.arg({ type: RoleEnum, required: true, description: 'Role given to whoever joins' }) },
    resolve: (_root, args, ctx) => createLinkInvite(ctx, args.organizationId, args.role),
  }),
  updateOrganizationLinkInvite: t.field({
    type: LinkInviteRef,
    description: 'Change the role of an invite link (admins only)',
    args: { ...invitePath, role: t.arg({ type: RoleEnum, description: 'Role given to whoever joins' }) },
    resolve: (_root, args, ctx) => updateLinkInvite(ctx, args.organizationId, args.inviteId, args.role),
  }),
  deleteOrganizationLinkInvite: t.boolean({
    description: 'Delete an invite link (admins only); it can no longer be used to join',
    args: invitePath,
    resolve: (_root, args, ctx) => deleteLinkInvite(ctx, args.organizationId, args.inviteId),
  }),
}));
