import './space.schema.ts';
import './space.graph.ts';
import './space-permissions.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { PURGE_JOB, purgeJob } from './space.lifecycle.ts';
import { spaceRoutes } from './space.rest.ts';
import { spacePermissionRoutes } from './space-permissions.rest.ts';

export const spacesModule: DomainModule = { name: 'spaces', routes: { ...spaceRoutes, ...spacePermissionRoutes }, jobs: { [PURGE_JOB]: purgeJob } };

// The public entry of the module: what other modules use. Who may do what with a space lives one floor
// below, in content-access/.
export { SpaceRef, ContentPositionInput, SpaceList } from './space.schema.ts';
export { viewerSpacePage } from './space-pages.ts';
export { lockOrganization, positionKey, subtreeCollectionIds, type ContentPosition } from './hierarchy.ts';
export { detachFromOrganization } from './space.service.ts';
export { mergeRuleRefusal, mergeRulesOf, needsReviews } from './merge-rules.ts';
export { changeGrant, deleteGrant, findGrant, grantNotFound, inviteesOf, listTeamGrants, listUserGrants, writeGrants, type Grantee, type Invitees } from './content-grants.ts';
// Access lists, written once for spaces, collections and sites (grant-screens.ts, grant-fields.ts).
export { grantScreens, type GrantedResource, type GrantScreens } from './grant-screens.ts';
export { declareGrantFields } from './grant-fields.ts';
export { collectionDefaults, listPermissionsAggregate } from './permission-aggregate.ts';
export { AggregateContentPermissionList, TeamContentPermissionList, UserContentPermissionList } from './space-permissions.schema.ts';
