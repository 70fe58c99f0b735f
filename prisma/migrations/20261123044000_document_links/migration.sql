-- The links of each page body, extracted once when the body (a content-addressed Document) is first
-- stored, so that link lists, page links and file backlinks are indexed queries instead of parsing every
-- page's markdown on every read. No backfill: no API could write documents before this release (only
-- test factories did), so every Document a server holds gets its links from `putDocuments`.

-- CreateEnum
CREATE TYPE "DocumentLinkKind" AS ENUM ('page', 'file', 'url', 'anchor');

-- CreateTable
CREATE TABLE "DocumentLink" (
    "documentHash" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "kind" "DocumentLinkKind" NOT NULL,
    "targetPageId" TEXT,
    "targetFileId" TEXT,
    "url" TEXT,
    "relative" BOOLEAN NOT NULL DEFAULT false,
    "anchor" TEXT,

    CONSTRAINT "DocumentLink_pkey" PRIMARY KEY ("documentHash","ordinal")
);

-- CreateIndex
CREATE INDEX "DocumentLink_targetPageId_documentHash_idx" ON "DocumentLink"("targetPageId", "documentHash");

-- CreateIndex
CREATE INDEX "DocumentLink_targetFileId_documentHash_idx" ON "DocumentLink"("targetFileId", "documentHash");

-- AddForeignKey
ALTER TABLE "DocumentLink" ADD CONSTRAINT "DocumentLink_documentHash_fkey" FOREIGN KEY ("documentHash") REFERENCES "Document"("hash") ON DELETE CASCADE ON UPDATE CASCADE;
