import './user.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { userRoutes } from './user.rest.ts';

export const usersModule: DomainModule = { name: 'users', routes: userRoutes };
