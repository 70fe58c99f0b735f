-- Page bodies and file bytes become content-addressed: stored once by their SHA-256 (hex) and shared by
-- every revision holding them, so a revision that changes one page writes one document. Existing bodies
-- and bytes move over with the same hash the application computes (src/modules/content/content-hash.ts).

-- CreateTable
CREATE TABLE "Document" (
    "hash" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Document_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "FileBlob" (
    "hash" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileBlob_pkey" PRIMARY KEY ("hash")
);

-- Pages: document pages point at their body.
ALTER TABLE "Page" ADD COLUMN "documentHash" TEXT;
INSERT INTO "Document" ("hash", "markdown")
  SELECT DISTINCT encode(sha256(convert_to("markdown", 'UTF8')), 'hex'), "markdown" FROM "Page" WHERE "type" = 'document'
  ON CONFLICT DO NOTHING;
UPDATE "Page" SET "documentHash" = encode(sha256(convert_to("markdown", 'UTF8')), 'hex') WHERE "type" = 'document';
ALTER TABLE "Page" DROP COLUMN "markdown";

-- Files: every file points at its bytes.
ALTER TABLE "File" ADD COLUMN "blobHash" TEXT;
INSERT INTO "FileBlob" ("hash", "bytes", "size")
  SELECT DISTINCT encode(sha256(coalesce("content", ''::bytea)), 'hex'), coalesce("content", ''::bytea), length(coalesce("content", ''::bytea)) FROM "File"
  ON CONFLICT DO NOTHING;
UPDATE "File" SET "blobHash" = encode(sha256(coalesce("content", ''::bytea)), 'hex');
ALTER TABLE "File" ALTER COLUMN "blobHash" SET NOT NULL;
ALTER TABLE "File" DROP COLUMN "content";

-- CreateIndex
CREATE INDEX "File_blobHash_idx" ON "File"("blobHash");

-- CreateIndex
CREATE INDEX "Page_documentHash_idx" ON "Page"("documentHash");

-- AddForeignKey
ALTER TABLE "Page" ADD CONSTRAINT "Page_documentHash_fkey" FOREIGN KEY ("documentHash") REFERENCES "Document"("hash") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "File" ADD CONSTRAINT "File_blobHash_fkey" FOREIGN KEY ("blobHash") REFERENCES "FileBlob"("hash") ON DELETE NO ACTION ON UPDATE CASCADE;
