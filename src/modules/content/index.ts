import './content.schema.ts';
import './revision-content.schema.ts';
import './content.graph.ts';
import './links.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { contentRoutes } from './content.rest.ts';
import { fileDownloadRoutes } from './file-download.http.ts';

export const contentModule: DomainModule = { name: 'content', routes: contentRoutes, httpRoutes: fileDownloadRoutes };
