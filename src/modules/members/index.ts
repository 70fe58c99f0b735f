import './member.schema.ts';
import './member.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { memberRoutes } from './member.rest.ts';

export const membersModule: DomainModule = { name: 'members', routes: memberRoutes };

// The public entry of the module: what other modules use.
export { MemberList, MemberRef, MemberRoleFilterEnum } from './member.schema.ts';
export { memberPolicy } from './member.policy.ts';
