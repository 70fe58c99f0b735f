import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['invites'];

export const inviteRoutes: RouteTable = {
  'Mutation.inviteUsersToOrganization': { method: 'POST', path: '/orgs/{organizationId}/invites', tags },
  'Mutation.joinOrganization': { method: 'POST', path: '/orgs/{organizationId}/invites/{inviteId}', tags },
  'Query.organizationLinkInvites': { method: 'GET', path: '/orgs/{organizationId}/link-invites', tags },
  'Mutation.createOrganizationLinkInvite': { method: 'POST', path: '/orgs/{organizationId}/link-invites', status: 201, tags },
  'Query.organizationLinkInvite': { method: 'GET', path: '/orgs/{organizationId}/link-invites/{inviteId}', tags },
  'Mutation.updateOrganizationLinkInvite': { method: 'PATCH', path: '/orgs/{organizationId}/link-invites/{inviteId}', tags },
  'Mutation.deleteOrganizationLinkInvite': { method: 'DELETE', path: '/orgs/{organizationId}/link-invites/{inviteId}', status: 204, tags },
  'Query.userInvitations': {
    method: 'GET',
    path: '/user/invitations',
    tags,
    addition: 'Where an invited user finds the IDs of their pending e-mail invitations',
  },
};
