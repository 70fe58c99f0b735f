-- CreateEnum
CREATE TYPE "OpenAPISpecProcessingState" AS ENUM ('pending', 'progress', 'complete');

-- CreateEnum
CREATE TYPE "OpenAPISpecErrorCode" AS ENUM ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR');

-- DropIndex
DROP INDEX "Job_active_key_key";

-- CreateTable
CREATE TABLE "OpenAPISpec" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "sourceGeneration" INTEGER NOT NULL DEFAULT 0,
    "processingState" "OpenAPISpecProcessingState" NOT NULL DEFAULT 'pending',
    "lastProcessedAt" TIMESTAMP(3),
    "lastProcessErrorCode" "OpenAPISpecErrorCode",
    "lastProcessedErrors" JSONB,
    "lastVersionId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OpenAPISpec_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OpenAPISpecSource" (
    "specId" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "OpenAPISpecSource_pkey" PRIMARY KEY ("specId")
);

-- CreateTable
CREATE TABLE "OpenAPISpecVersion" (
    "id" TEXT NOT NULL,
    "specId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OpenAPISpecVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OpenAPISpec_organizationId_createdAt_id_idx" ON "OpenAPISpec"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OpenAPISpec_organizationId_slug_key" ON "OpenAPISpec"("organizationId", "slug");

-- CreateIndex
CREATE INDEX "OpenAPISpecVersion_specId_createdAt_id_idx" ON "OpenAPISpecVersion"("specId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Job_active_key_key" ON "Job"("key") WHERE ("state" IN ('queued', 'running'));

-- AddForeignKey
ALTER TABLE "OpenAPISpec" ADD CONSTRAINT "OpenAPISpec_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OpenAPISpec" ADD CONSTRAINT "OpenAPISpec_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OpenAPISpec" ADD CONSTRAINT "OpenAPISpec_lastVersionId_fkey" FOREIGN KEY ("lastVersionId") REFERENCES "OpenAPISpecVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OpenAPISpecSource" ADD CONSTRAINT "OpenAPISpecSource_specId_fkey" FOREIGN KEY ("specId") REFERENCES "OpenAPISpec"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OpenAPISpecVersion" ADD CONSTRAINT "OpenAPISpecVersion_specId_fkey" FOREIGN KEY ("specId") REFERENCES "OpenAPISpec"("id") ON DELETE CASCADE ON UPDATE CASCADE;
