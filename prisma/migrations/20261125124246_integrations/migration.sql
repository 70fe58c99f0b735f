-- CreateEnum
CREATE TYPE "IntegrationVisibility" AS ENUM ('public', 'private', 'unlisted');

-- DropIndex
DROP INDEX "Job_active_key_key";

-- CreateTable
CREATE TABLE "Integration" (
    "name" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "summary" TEXT,
    "iconHash" TEXT,
    "iconContentType" TEXT,
    "previewImageHashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "previewImageTypes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "visibility" "IntegrationVisibility" NOT NULL DEFAULT 'private',
    "target" TEXT NOT NULL DEFAULT 'all',
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "categories" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "blocks" JSONB NOT NULL DEFAULT '[]',
    "contentSources" JSONB NOT NULL DEFAULT '[]',
    "configurations" JSONB NOT NULL DEFAULT '{}',
    "externalLinks" JSONB NOT NULL DEFAULT '[]',
    "contentSecurityPolicy" JSONB,
    "blockDomains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "hasBlocks" BOOLEAN NOT NULL DEFAULT false,
    "hasContentSources" BOOLEAN NOT NULL DEFAULT false,
    "runtime" TEXT NOT NULL DEFAULT 'v1',
    "script" TEXT NOT NULL,
    "secretsEncrypted" TEXT,
    "publishedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Integration_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "IntegrationInstallation" (
    "id" TEXT NOT NULL,
    "integrationName" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "spaceSelection" TEXT NOT NULL DEFAULT 'selected',
    "siteSelection" TEXT NOT NULL DEFAULT 'selected',
    "configuration" JSONB NOT NULL DEFAULT '{}',
    "externalIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "installedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IntegrationInstallation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Integration_visibility_name_idx" ON "Integration"("visibility", "name");

-- CreateIndex
CREATE INDEX "Integration_organizationId_name_idx" ON "Integration"("organizationId", "name");

-- CreateIndex
CREATE INDEX "Integration_blockDomains_idx" ON "Integration" USING GIN ("blockDomains");

-- CreateIndex
CREATE INDEX "IntegrationInstallation_organizationId_idx" ON "IntegrationInstallation"("organizationId");

-- CreateIndex
CREATE INDEX "IntegrationInstallation_integrationName_createdAt_id_idx" ON "IntegrationInstallation"("integrationName", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "IntegrationInstallation_integrationName_organizationId_key" ON "IntegrationInstallation"("integrationName", "organizationId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_active_key_key" ON "Job"("key") WHERE ("state" IN ('queued', 'running'));

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_publishedById_fkey" FOREIGN KEY ("publishedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_iconHash_fkey" FOREIGN KEY ("iconHash") REFERENCES "FileBlob"("hash") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationInstallation" ADD CONSTRAINT "IntegrationInstallation_integrationName_fkey" FOREIGN KEY ("integrationName") REFERENCES "Integration"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationInstallation" ADD CONSTRAINT "IntegrationInstallation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrationInstallation" ADD CONSTRAINT "IntegrationInstallation_installedById_fkey" FOREIGN KEY ("installedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
