-- DropIndex
DROP INDEX "Page_documentHash_idx";

-- CreateIndex
CREATE INDEX "Page_documentHash_revisionId_idx" ON "Page"("documentHash", "revisionId");
