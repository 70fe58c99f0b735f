import { addPages as addRevisionPages, buildCollection, buildMember, buildOrganization, buildSpace, pagesOf as revisionPages, type PageSeed } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import type { Caller, Harness } from '../support/harness.ts';

/** What the spaces' test files share: selections, unknown IDs, paths, and helpers bound to a harness. */
export const SPACE = `object id title emoji visibility createdAt updatedAt deletedAt editMode mergeRules urls { location app published public icon }
  organization parent revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
  permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }`;
export const UNKNOWN_ORG = 'unknownOrg0000000001';
export const UNKNOWN_SPACE = 'unknownSpace00000001';
export const UNKNOWN_USER = 'unknownUser000000001';
export const DAY = 24 * 60 * 60 * 1000;

export const spacesPath = (o: string) => `/v1/orgs/${o}/spaces`;
export const spacePath = (s: string) => `/v1/spaces/${s}`;
export const ids = (list: { items: { id: string }[] }) => list.items.map((i) => i.id);

/** o: the organization, s: the space, u: a member, t: the organization a transfer goes to. */
export type Ids = { o: string; s: string; u: string; t: string };

export function spaceKit(h: Harness) {
  /** A space created a second after the previous event (distinct, ordered times). */
  async function createSpace(c: Caller, o: string, body: Record<string, unknown> = {}) {
    h.clock.advance(1000);
    return buildSpace(c, o, body);
  }
  /** An organization with an admin, a 'read' and a 'create' member, a collection and a space inside it. */
  async function setup() {
    const { admin, organizationId: o } = await buildOrganization(h);
    const reader = await buildMember(h, o, 'read', 'Reader');
    const creator = await buildMember(h, o, 'create', 'Creator');
    const collection = await buildCollection(admin, o, { title: 'Guides' });
    const space = await createSpace(admin, o, { title: 'Docs', parent: collection.id });
    return { admin, o, reader, creator, collection, space };
  }
  return {
    createSpace,
    setup,
    getSpace: async (c: Caller, s: string) => expectOk(await c.rest('GET', spacePath(s)), 200, 'getSpaceById'),
    collectionSpaces: async (c: Caller, col: string) => expectOk(await c.rest('GET', `/v1/collections/${col}/spaces`), 200, 'listSpacesInCollectionById'),
    orgSpaces: async (c: Caller, o: string) => expectOk(await c.rest('GET', spacesPath(o)), 200, 'listSpacesInOrganizationById'),
    addPages: (revisionId: string, pages: PageSeed[]) => addRevisionPages(h.db, revisionId, pages),
    pagesOf: (revisionId: string) => revisionPages(h.db, revisionId),
  };
}
