import './team.schema.ts';
import './team.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { teamRoutes } from './team.rest.ts';

export const teamsModule: DomainModule = { name: 'teams', routes: teamRoutes };

// The public entry of the module: what other modules use.
export { TeamRef } from './team.schema.ts';
