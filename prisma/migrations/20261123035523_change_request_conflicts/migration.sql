-- AlterTable
ALTER TABLE "ChangeRequest" ADD COLUMN     "conflicts" JSONB NOT NULL DEFAULT '[]';
