import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { importIntoChangeRequest, importIntoSpace, IMPORT_SOURCES, MAX_URL, type ImportResult } from './content-import.service.ts';

const ContentImportSourceEnum = builder.enumType('ContentImportSource', {
  description: 'What is imported: `website`, a site crawled from a URL',
  values: IMPORT_SOURCES,
});

const ContentImportResultRef = builder.objectRef<ImportResult>('ContentImportResult').implement({
  description: 'What an import did: the revision it made, and how many of the resources it found (pages and images) it brought in',
  fields: (t) => ({
    revision: t.exposeString('revision', { description: 'The new revision (of the space, or of the change request)' }),
    importedResources: t.exposeInt('importedResources', { description: 'Pages and images brought in' }),
    totalResources: t.exposeInt('totalResources', { description: 'Pages and images found: those that could not be fetched count here only' }),
  }),
});

const importArgs = builder.args((t) => ({
  url: t.string({
    required: true,
    description: 'Where to start: an absolute http(s) URL (at most 2048 characters)',
    extensions: constrained({ maxLength: MAX_URL, format: 'uri' }),
  }),
  source: t.field({ type: ContentImportSourceEnum, required: true, description: '`website`' }),
}));

builder.mutationFields((t) => ({
  importSpaceContent: t.field({
    type: ContentImportResultRef,
    description:
      "Imports a website into the space's content: its pages under the start URL's path (same origin), breadth first, as pages after the existing ones, its images as files; one new revision",
    args: { spaceId: t.arg.string({ required: true, description: 'ID of the space' }), ...importArgs },
    resolve: (_root, { spaceId, url, source }, ctx) => importIntoSpace(ctx, spaceId, { url, source }),
  }),
  importChangeRequestContent: t.field({
    type: ContentImportResultRef,
    description: "Imports a website into a change request's content, as importSpaceContent does for a space",
    args: {
      spaceId: t.arg.string({ required: true, description: 'ID of the space' }),
      changeRequestId: t.arg.string({ required: true, description: 'ID (or number) of the change request' }),
      ...importArgs,
    },
    resolve: (_root, { spaceId, changeRequestId, url, source }, ctx) => importIntoChangeRequest(ctx, spaceId, changeRequestId, { url, source }),
  }),
}));
