import './user.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { userRoutes } from './user.rest.ts';

export const usersModule: DomainModule = { name: 'users', routes: userRoutes };

// The public entry of the module: what other modules use.
export { UserRef } from './user.schema.ts';
export { usersForEmails } from './user.service.ts';
export { userJson } from './user.presenter.ts';
export { userForToken } from './user.service.ts';
export { createUserWithToken } from './user.service.ts';
