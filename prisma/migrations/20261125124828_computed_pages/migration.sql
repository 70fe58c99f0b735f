-- AlterTable
ALTER TABLE "Page" ADD COLUMN     "computed" JSONB;
