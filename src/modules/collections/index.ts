import './collection.schema.ts';
import './collection.graph.ts';
import type { DomainModule } from '../domain-module.ts';
import { collectionRoutes } from './collection.rest.ts';

export const collectionsModule: DomainModule = { name: 'collections', routes: collectionRoutes };

export { CollectionRef } from './collection.schema.ts';
