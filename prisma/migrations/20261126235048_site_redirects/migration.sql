-- CreateEnum
CREATE TYPE "SiteRedirectKind" AS ENUM ('site-section', 'site-space', 'site-page', 'external');

-- CreateTable
CREATE TABLE "SiteRedirect" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "captureWildcard" BOOLEAN NOT NULL DEFAULT false,
    "permanent" BOOLEAN NOT NULL DEFAULT false,
    "kind" "SiteRedirectKind" NOT NULL,
    "siteSectionId" TEXT,
    "siteSpaceId" TEXT,
    "pageId" TEXT,
    "url" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteRedirect_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PagePathRedirect" (
    "spaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PagePathRedirect_pkey" PRIMARY KEY ("spaceId","path")
);

-- CreateIndex
CREATE INDEX "SiteRedirect_siteId_draft_createdAt_id_idx" ON "SiteRedirect"("siteId", "draft", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SiteRedirect_siteId_draft_changedAt_id_idx" ON "SiteRedirect"("siteId", "draft", "changedAt", "id");

-- CreateIndex
CREATE INDEX "SiteRedirect_siteSectionId_idx" ON "SiteRedirect"("siteSectionId");

-- CreateIndex
CREATE INDEX "SiteRedirect_siteSpaceId_idx" ON "SiteRedirect"("siteSpaceId");

-- CreateIndex
CREATE UNIQUE INDEX "SiteRedirect_siteId_draft_source_key" ON "SiteRedirect"("siteId", "draft", "source");

-- AddForeignKey
ALTER TABLE "SiteRedirect" ADD CONSTRAINT "SiteRedirect_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteRedirect" ADD CONSTRAINT "SiteRedirect_siteSectionId_fkey" FOREIGN KEY ("siteSectionId") REFERENCES "SiteSection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteRedirect" ADD CONSTRAINT "SiteRedirect_siteSpaceId_fkey" FOREIGN KEY ("siteSpaceId") REFERENCES "SiteSpace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PagePathRedirect" ADD CONSTRAINT "PagePathRedirect_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;
