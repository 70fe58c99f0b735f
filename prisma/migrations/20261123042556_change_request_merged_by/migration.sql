-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "mergedById" TEXT;

-- CreateIndex
CREATE INDEX "ChangeRequest_mergedById_idx" ON "ChangeRequest"("mergedById");

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_mergedById_fkey" FOREIGN KEY ("mergedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
