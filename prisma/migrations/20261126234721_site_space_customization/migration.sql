-- AlterTable
ALTER TABLE "SiteSpace" ADD COLUMN     "customization" JSONB;
