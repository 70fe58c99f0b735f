-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "customization" JSONB,
ADD COLUMN     "customizationUpdatedAt" TIMESTAMP(3);
