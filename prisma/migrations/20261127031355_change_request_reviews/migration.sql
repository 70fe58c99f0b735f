-- CreateEnum
CREATE TYPE "ChangeRequestReviewStatus" AS ENUM ('changes-requested', 'approved');

-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "mergeRules" JSONB NOT NULL DEFAULT '{"type": "inherit"}';

-- CreateTable
CREATE TABLE "ChangeRequestReview" (
    "id" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "requestedById" TEXT,
    "revisionId" TEXT NOT NULL,
    "status" "ChangeRequestReviewStatus" NOT NULL,
    "commentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChangeRequestRequestedReviewer" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "requestedById" TEXT,
    "revisionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChangeRequestRequestedReviewer_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_createdAt_id_idx" ON "ChangeRequestReview"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_changeRequestId_revisionId_createdAt_id_idx" ON "ChangeRequestReview"("changeRequestId", "revisionId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_reviewerId_idx" ON "ChangeRequestReview"("reviewerId");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_requestedById_idx" ON "ChangeRequestReview"("requestedById");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_revisionId_idx" ON "ChangeRequestReview"("revisionId");

-- CreateIndex
CREATE INDEX "ChangeRequestReview_commentId_idx" ON "ChangeRequestReview"("commentId");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_changeRequestId_createdAt_us_idx" ON "ChangeRequestRequestedReviewer"("changeRequestId", "createdAt", "userId");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_userId_idx" ON "ChangeRequestRequestedReviewer"("userId");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_requestedById_idx" ON "ChangeRequestRequestedReviewer"("requestedById");

-- CreateIndex
CREATE INDEX "ChangeRequestRequestedReviewer_revisionId_idx" ON "ChangeRequestRequestedReviewer"("revisionId");

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestReview" ADD CONSTRAINT "ChangeRequestReview_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestRequestedReviewer" ADD CONSTRAINT "ChangeRequestRequestedReviewer_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
