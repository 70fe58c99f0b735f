import './invite.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { inviteRoutes } from './invite.rest.ts';

export const invitesModule: DomainModule = { name: 'invites', routes: inviteRoutes };
export { inviteEmailsToContent, type GrantTarget } from './content-invites.ts';
