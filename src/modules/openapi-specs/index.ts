import './openapi-spec.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { openApiSpecRoutes } from './openapi-spec.rest.ts';
import { PROCESS_SPEC_JOB, processSpecJob } from './openapi-processing.ts';

export const openApiSpecsModule: DomainModule = { name: 'openapi-specs', routes: openApiSpecRoutes, jobs: { [PROCESS_SPEC_JOB]: processSpecJob } };
