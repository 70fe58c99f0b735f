import './comment.schema.ts';
import './comment.graph.ts';
import './review-comment.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { commentRoutes, spaceCommentRoutes } from './comment.rest.ts';

export const commentsModule: DomainModule = { name: 'comments', routes: { ...commentRoutes, ...spaceCommentRoutes } };
