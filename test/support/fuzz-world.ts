/**
 * An organization with something of everything, built through the API, and the IDs that fill every
 * path parameter of the route table with a record that exists: a fuzzed request then reaches past the
 * lookups into the services, where the costly work is. Used by the route walker (through `app.fetch`)
 * and by the memory benchmark (over HTTP).
 */
export type Call = (method: string, path: string, body?: unknown) => Promise<any>;

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export async function buildFuzzWorld(call: Call, organizationId: string, readerId: string): Promise<Record<string, string>> {
  const o = organizationId;
  const space = await call('POST', `/v1/orgs/${o}/spaces`, { title: 'S' });
  const collection = await call('POST', `/v1/orgs/${o}/collections`, { title: 'C' });
  const team = await call('PUT', `/v1/orgs/${o}/teams`, { title: 'T', members: [readerId] });
  await call('POST', `/v1/orgs/${o}/custom-fields`, { name: 'owner', type: 'text' });
  const link = await call('POST', `/v1/orgs/${o}/link-invites`, { role: 'read' });
  const saml = await call('POST', `/v1/orgs/${o}/saml`, { label: 'IdP' });

  // Content: a page and a file merged into the space, and an open change request with a comment and a reply.
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Fuzz' });
  const crPath = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
  await call('POST', `${crPath}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nHello [there](https://example.com).' } },
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG_1x1 }] },
    ],
  });
  await call('POST', `${crPath}/merge`);
  const content = await call('GET', `/v1/spaces/${space.id}/content`);
  const open = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Open' });
  const openPath = `/v1/spaces/${space.id}/change-requests/${open.id}`;
  const comment = await call('POST', `${openPath}/comments`, { body: { markdown: 'A comment' } });
  const reply = await call('POST', `${openPath}/comments/${comment.id}/replies`, { body: { markdown: 'A reply' } });

  // A site with a section, a group and a share link; translation settings; an OpenAPI spec; an integration.
  const site = await call('POST', `/v1/orgs/${o}/sites`, { title: 'Docs', spaces: [space.id] });
  const sitePath = `/v1/orgs/${o}/sites/${site.id}`;
  const sections = await call('GET', `${sitePath}/sections`);
  const group = await call('POST', `${sitePath}/section-groups`, { title: 'Group', sections: [] });
  const shareLink = await call('POST', `${sitePath}/share-links`, { name: 'Partners' });
  const translation = await call('POST', `/v1/orgs/${o}/translations`, { title: 'Europe', languages: ['fr'] });
  await call('PUT', `/v1/orgs/${o}/openapi/petstore`, {
    source: { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} }) },
  });
  const integrationName = `fuzzed-${Date.now().toString(36)}`;
  await call('POST', `/v1/integrations/${integrationName}`, {
    runtime: 'v2',
    title: 'Fuzzed',
    description: 'Fuzzed',
    scopes: [],
    organization: o,
    previewImages: [],
    script: 'export default {};',
  });

  return {
    organizationId: o,
    spaceId: space.id,
    collectionId: collection.id,
    teamId: team.id,
    userId: readerId,
    inviteId: link.id,
    samlProviderId: saml.id,
    fieldName: 'owner',
    customFieldName: 'owner',
    emailDomain: 'example.com',
    changeRequestId: open.id,
    commentId: comment.id,
    commentReplyId: reply.id,
    pageId: content.pages[0].id,
    fileId: content.files[0].id,
    siteId: site.id,
    siteSectionId: sections.items[0].id,
    siteSpaceId: sections.items[0].siteSpaces[0].id,
    siteSectionGroupId: group.id,
    shareLinkId: shareLink.id,
    translationSettingsId: translation.id,
    specSlug: 'petstore',
    integrationName,
  };
}
