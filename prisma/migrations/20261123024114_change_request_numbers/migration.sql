-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "lastChangeRequestNumber" INTEGER NOT NULL DEFAULT 0;

-- Spaces that already have change requests continue after their highest number.
UPDATE "Space" s SET "lastChangeRequestNumber" = m."number"
FROM (SELECT "spaceId", max("number") AS "number" FROM "ChangeRequest" GROUP BY "spaceId") m
WHERE m."spaceId" = s."id";
