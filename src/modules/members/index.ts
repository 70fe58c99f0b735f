import './member.schema.ts';
import './member.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { memberRoutes } from './member.rest.ts';

export const membersModule: DomainModule = { name: 'members', routes: memberRoutes };
