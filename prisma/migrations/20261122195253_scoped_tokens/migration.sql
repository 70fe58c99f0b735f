-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN     "organizationId" TEXT;

-- CreateIndex
CREATE INDEX "AccessToken_organizationId_idx" ON "AccessToken"("organizationId");

-- AddForeignKey
ALTER TABLE "AccessToken" ADD CONSTRAINT "AccessToken_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
