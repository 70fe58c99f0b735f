import type { RouteTable } from '../../rest/route-table.ts';

const tags = ['invites'];

export const inviteRoutes: RouteTable = {
  'Mutation.inviteUsersToOrganization': { method: 'POST', path: '/orgs/{organizationId}/invites', tags },
  'Mutation.joinOrganization': { operationId: 'joinOrganizationWithInvite', method: 'POST', path: '/orgs/{organizationId}/invites/{inviteId}', tags },
  'Query.organizationLinkInvites': { operationId: 'listOrganizationInviteLinks', method: 'GET', path: '/orgs/{organizationId}/link-invites', tags },
  'Mutation.createOrganizationLinkInvite': { operationId: 'createOrganizationInvite', method: 'POST', path: '/orgs/{organizationId}/link-invites', status: 201, tags },
  'Query.organizationLinkInvite': { operationId: 'getOrganizationInviteLink', method: 'GET', path: '/orgs/{organizationId}/link-invites/{inviteId}', tags },
  'Mutation.updateOrganizationLinkInvite': { operationId: 'updateOrganizationInviteById', method: 'PATCH', path: '/orgs/{organizationId}/link-invites/{inviteId}', tags },
  'Mutation.deleteOrganizationLinkInvite': { operationId: 'deleteOrganizationInviteById', method: 'DELETE', path: '/orgs/{organizationId}/link-invites/{inviteId}', status: 204, tags },
  'Query.userInvitations': {
    method: 'GET',
    path: '/user/invitations',
    tags,
    addition: 'Where an invited user finds the IDs of their pending e-mail invitations',
  },
};
