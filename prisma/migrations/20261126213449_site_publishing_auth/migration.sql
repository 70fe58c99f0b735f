-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "publishingAuthFallbackUrl" TEXT,
ADD COLUMN     "publishingAuthKey" TEXT,
ADD COLUMN     "publishingAuthLogoutUrl" TEXT;
