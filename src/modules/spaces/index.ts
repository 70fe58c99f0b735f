import './space.schema.ts';
import './space.graph.ts';
import './space-permissions.schema.ts';
import './collection-permissions.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { PURGE_JOB, purgeJob } from './space.lifecycle.ts';
import { spaceRoutes } from './space.rest.ts';
import { spacePermissionRoutes } from './space-permissions.rest.ts';
import { collectionPermissionRoutes } from './collection-permissions.rest.ts';

export const spacesModule: DomainModule = { name: 'spaces', routes: { ...spaceRoutes, ...spacePermissionRoutes, ...collectionPermissionRoutes }, jobs: { [PURGE_JOB]: purgeJob } };

// The public entry of the module: what other modules use.
export { viewerCan, spaceFor, visibleSpacesWhere, spaceActor, collectionPermissions, collectionFor, heldRoleBy } from './content-access.ts';
export { SpaceRef, ContentPositionInput, SpaceList } from './space.schema.ts';
export { viewerSpacePage } from './space-pages.ts';
export { lockOrganization, positionKey, subtreeCollectionIds, type ContentPosition } from './hierarchy.ts';
export { detachFromOrganization } from './space.service.ts';
export { mergeRuleRefusal, mergeRulesOf, needsReviews } from './merge-rules.ts';
export { collectionTreeDepth, reachableSpacesWhere, reachableCollectionsWhere, grantedCollectionIds } from './content-access.ts';
export { changeGrant, deleteGrant, findGrant, grantNotFound, inviteesOf, listTeamGrants, listUserGrants, writeGrants, type Grantee, type Invitees } from './content-grants.ts';
