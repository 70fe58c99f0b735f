-- AlterTable
ALTER TABLE "ChangeRequestContributor" ADD COLUMN     "edits" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "lastEditedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Contributors recorded before: one edit each, last at their change request's last update (the best
-- known time; the exact one was not kept).
UPDATE "ChangeRequestContributor" c SET "lastEditedAt" = cr."updatedAt" FROM "ChangeRequest" cr WHERE cr."id" = c."changeRequestId";
