import './collection.schema.ts';
import './collection.graph.ts';
import './collection-permissions.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { collectionRoutes } from './collection.rest.ts';
import { collectionPermissionRoutes } from './collection-permissions.rest.ts';

export const collectionsModule: DomainModule = { name: 'collections', routes: { ...collectionRoutes, ...collectionPermissionRoutes } };

export { CollectionRef } from './collection.schema.ts';
