import './content.schema.ts';
import './revision-content.schema.ts';
import './revision-reads.schema.ts';
import './content.graph.ts';
import './links.schema.ts';
import type { DomainModule } from '../domain-module.ts';
import { contentRoutes } from './content.rest.ts';
import { fileDownloadRoutes } from './file-download.http.ts';

export const contentModule: DomainModule = { name: 'content', routes: contentRoutes, httpRoutes: fileDownloadRoutes };

// The public entry of the module: what other modules use.
export { MAX_PAGE_MARKDOWN } from './content-limits.ts';
export { getFile, getPage, getRevision, listFiles, listPages, pageExists, type ContentSource } from './content.service.ts';
export { RevisionFileRef, DocumentFormatEnum, RevisionFileList, RevisionPageTree, mergedFromQuery, RevisionRef, revisionReadArgs } from './content.schema.ts';
export { RevisionDraft, slugify, type DraftPage, type DraftFile } from './revision-draft.ts';
export { lockSpaceAt, writeRevision, draftOf, rememberContent, storeNodes } from './revision-writer.ts';
export { RevisionContent, revisionContent, revisionContents, contentCacheOf, configureContentCache, pageCodec, fileCodec, type PageEntry, type FileEntry } from './revision-content.ts';
export { rebuildTree, ContentSequence, type Piece } from './content-tree.ts';
export { hasConflictMarkers, hashesToMerge, mergeRevisions, sequenceChanges, type MergeConflict } from './three-way-merge.ts';
export { pageWithBodyShape, documentShape } from './content-shapes.ts';
export { RevisionContentRef } from './revision-content.schema.ts';
export { contentHash } from './content-hash.ts';
export { detectImage, type DetectedImage } from './image-types.ts';
export { resolveLinks } from './link-resolution.ts';
export { contentDisposition } from './file-download.http.ts';
export { renderPdf, type PdfPage } from './markdown-pdf.ts';
export { signedDownloadRoute } from './signed-download.ts';
export { buildPageTree, findPage, type PageNode } from './page-tree.ts';
export { signUrl, verifySignedUrl } from './signed-urls.ts';
export { ContentLocationList, LinkListRef } from './links.schema.ts';
export { listFileBacklinks, listLinks } from './links.service.ts';
export { markdownParser } from './document-links.ts';
export { databaseFileStore } from './file-store.ts';
export { signedFileUrl } from './file-urls.ts';
export { documentBudget } from './document-budget.ts';
export { markdownToDocument } from './markdown-document.ts';
export { urlSigningKey } from './signed-urls.ts';
export { registerComputedContent } from './computed-sources.ts';
