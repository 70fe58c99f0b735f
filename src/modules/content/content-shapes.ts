/**
 * The shapes of the content values answered as one `JSON` value (page trees, a page with its body, a
 * structured document, a page's layout), for the OpenAPI document (`shaped`, src/graphql/constraints.ts).
 * They follow what page-json.ts, content.service.ts and markdown-document.ts build, in GitBook's names
 * (`RevisionPage`, `RevisionPageLayoutOptions`, `JSONDocument`). Page trees are described one level
 * down: deeper pages are objects of the same shape, left loose.
 */

type Schema = Record<string, unknown>;

const string = { type: 'string' };
const boolean = { type: 'boolean' };
const dateTime = { type: 'string', format: 'date-time' };
const looseObjects = { type: 'array', items: { type: 'object' } };

/** GitBook's `JSONDocument` as markdownToDocument builds it: top-level blocks, their content left loose. */
export const documentShape: Schema = {
  type: 'object',
  required: ['object', 'data', 'nodes'],
  properties: {
    object: { type: 'string', enum: ['document'] },
    data: { type: 'object' },
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['object', 'type'],
        properties: { object: { type: 'string', enum: ['block'] }, type: string, data: { type: 'object' }, nodes: looseObjects },
      },
    },
  },
};

/** GitBook's `RevisionPageLayoutOptions`: every option, the default (everything shown) for those not chosen. */
export const pageLayoutShape: Schema = {
  type: 'object',
  required: ['width', 'cover', 'coverSize', 'coverMask', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'],
  properties: {
    width: { type: 'string', enum: ['default', 'wide'] },
    cover: boolean,
    coverSize: { type: 'string', enum: ['hero', 'full', 'background'] },
    coverMask: { type: 'string', enum: ['none', 'radial'] },
    title: boolean,
    description: boolean,
    tableOfContents: boolean,
    outline: boolean,
    pagination: boolean,
    metadata: boolean,
    tags: boolean,
    actions: boolean,
    anchors: boolean,
  },
};

/**
 * One page as pageJson builds it (GitBook's `RevisionPage`, without a body); `children`: the schema of
 * its child pages. `urls`, `layout` and `tags` are on document and computed pages only, `computed` on
 * computed pages only, `documentId` on document pages with a body.
 */
function revisionPage(children: Schema): Schema {
  return {
    type: 'object',
    required: ['id', 'title', 'kind', 'type', 'slug', 'path', 'hidden', 'createdAt', 'updatedAt', 'pages'],
    properties: {
      id: string,
      title: string,
      kind: { type: 'string', enum: ['sheet', 'group', 'link'] },
      type: { type: 'string', enum: ['document', 'group', 'link', 'computed'] },
      slug: string,
      path: string,
      hidden: boolean,
      createdAt: dateTime,
      updatedAt: dateTime,
      emoji: string,
      icon: string,
      description: string,
      noIndex: boolean,
      noRobotsIndex: boolean,
      documentId: { type: 'string', description: 'Document pages with a body: the ID of that body (getDocumentById)' },
      cover: {
        type: 'object',
        description: "GitBook's RevisionPageDocumentCover: `ref` (a file or URL), `yPos`, optionally `refDark`, `height`",
        required: ['yPos'],
        properties: { ref: { type: 'object' }, refDark: { type: 'object' }, yPos: { type: 'number' }, height: { type: 'number' } },
      },
      computed: {
        type: 'object',
        description: 'Its source: `{ type: "builtin:openapi", props, dependencies: { spec: { ref: { kind: "openapi", spec } } } }`',
        required: ['type'],
        properties: { type: string, props: { type: 'object' }, dependencies: { type: 'object' } },
      },
      urls: { type: 'object', required: ['app'], properties: { app: { type: 'string', format: 'uri' } } },
      layout: pageLayoutShape,
      tags: looseObjects,
      pages: { type: 'array', items: children },
    },
  };
}

/** A page of a tree (`Revision.pages`, `RevisionPageTree.pages`): its child pages left loose. */
export const revisionPageShape: Schema = revisionPage({ type: 'object' });

/** A page tree: the top-level pages, in order, each with its children under `pages`. */
export const pageTreeShape: Schema = { type: 'array', items: revisionPageShape };

/**
 * `GET …/content/page/{pageId}` (content.service.ts `getPage`): the page, its child pages, and for a
 * document (or computed) page its body as `document` (default) or `markdown` (format=markdown).
 */
export const pageWithBodyShape: Schema = (() => {
  const page = revisionPage(revisionPageShape);
  return { ...page, properties: { ...(page.properties as Schema), markdown: string, document: documentShape } };
})();
