// Who may do what with a space or a collection: the effective level (access-level.ts), the space and
// collection policies, and the look-ups that load a space or collection and authorize the caller on it
// (content-access.ts). It sits below spaces/ and collections/ because each needs the other's rules:
// a space is created inside a collection (collection policy), a collection lists its spaces.
export { effectiveLevel, strongestOf, type ContentActor } from './access-level.ts';
export { spacePolicy, mayMerge, mayReview, SPACE_PERMISSIONS, type SpaceRecord, type SpaceAction } from './space.policy.ts';
export { collectionPolicy, COLLECTION_PERMISSIONS, type CollectionRecord, type CollectionAction } from './collection.policy.ts';
export {
  ancestorGrants,
  ancestorLevels,
  collectionActor,
  collectionFor,
  collectionGrantedTo,
  collectionPermissions,
  collectionTreeDepth,
  grantedCollectionIds,
  heldRoleBy,
  reachableCollectionsWhere,
  reachableSpacesWhere,
  spaceActor,
  spaceFor,
  spacePermissions,
  viewerCan,
  visibleSpacesWhere,
  type CollectionAccess,
  type SpaceAccess,
} from './content-access.ts';
