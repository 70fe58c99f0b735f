import './space.schema.ts';
import './space.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { PURGE_JOB, purgeJob } from './space.lifecycle.ts';
import { spaceRoutes } from './space.rest.ts';

export const spacesModule: DomainModule = { name: 'spaces', routes: spaceRoutes, jobs: { [PURGE_JOB]: purgeJob } };
