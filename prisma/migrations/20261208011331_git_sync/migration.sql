-- CreateEnum
CREATE TYPE "GitSyncDirection" AS ENUM ('import', 'export');

-- CreateEnum
CREATE TYPE "GitSyncRunState" AS ENUM ('running', 'success', 'failure', 'timeout');

-- CreateTable
CREATE TABLE "GitSync" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "provider" TEXT,
    "treeUrl" TEXT,
    "commitUrl" TEXT,
    "credentials" TEXT,
    "webhookSecret" TEXT,
    "syncedCommit" TEXT,
    "syncedRevisionId" TEXT,
    "fetchedCommit" TEXT,
    "paths" JSONB NOT NULL DEFAULT '{}',
    "changeRequestId" TEXT,
    "changeRequestCommit" TEXT,
    "direction" "GitSyncDirection",
    "state" "GitSyncRunState",
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "error" TEXT,
    "lockedBy" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GitSync_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GitSync_spaceId_key" ON "GitSync"("spaceId");

-- CreateIndex
CREATE INDEX "GitSync_syncedRevisionId_idx" ON "GitSync"("syncedRevisionId");

-- CreateIndex
CREATE INDEX "GitSync_createdById_idx" ON "GitSync"("createdById");

-- CreateIndex
CREATE INDEX "GitSync_changeRequestId_idx" ON "GitSync"("changeRequestId");

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_syncedRevisionId_fkey" FOREIGN KEY ("syncedRevisionId") REFERENCES "Revision"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GitSync" ADD CONSTRAINT "GitSync_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;
