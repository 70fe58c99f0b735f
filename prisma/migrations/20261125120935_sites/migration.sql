-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "adaptiveSchemaUpdatedAt" TIMESTAMP(3),
ADD COLUMN     "createdById" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Site_organizationId_basename_key" ON "Site"("organizationId", "basename");

-- CreateIndex
CREATE UNIQUE INDEX "SiteSection_one_default_key" ON "SiteSection"("siteId") WHERE ("isDefault");

-- CreateIndex
CREATE UNIQUE INDEX "SiteSpace_one_default_key" ON "SiteSpace"("sectionId") WHERE ("isDefault");

-- AddForeignKey
ALTER TABLE "Site" ADD CONSTRAINT "Site_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
