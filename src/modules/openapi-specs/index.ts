import './openapi-spec.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { computedPageMarkdown } from './computed-content.ts';
import { openApiSpecRoutes } from './openapi-spec.rest.ts';
import { PROCESS_SPEC_JOB, processSpecJob } from './openapi-processing.ts';

export const openApiSpecsModule: DomainModule = {
  name: 'openapi-specs',
  routes: openApiSpecRoutes,
  jobs: { [PROCESS_SPEC_JOB]: processSpecJob },
  // Pages computed from a spec (`builtin:openapi`): its operations and models as markdown.
  computedContent: { 'builtin:openapi': computedPageMarkdown },
};
