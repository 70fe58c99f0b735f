-- AlterTable
ALTER TABLE "Space" ADD COLUMN     "changeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "draftChangeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "openChangeRequestCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "openCommentCount" INTEGER NOT NULL DEFAULT 0;

-- The counters are kept by triggers, in the same transaction as the rows they count: a space list reads
-- them with its page (no count subquery per row over the whole ChangeRequest and Comment tables).
CREATE FUNCTION "space_change_request_counters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "Space" SET
      "changeRequestCount" = "changeRequestCount" - 1,
      "openChangeRequestCount" = "openChangeRequestCount" - (OLD."status" = 'open')::int,
      "draftChangeRequestCount" = "draftChangeRequestCount" - (OLD."status" = 'draft')::int
    WHERE "id" = OLD."spaceId";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE "Space" SET
      "changeRequestCount" = "changeRequestCount" + 1,
      "openChangeRequestCount" = "openChangeRequestCount" + (NEW."status" = 'open')::int,
      "draftChangeRequestCount" = "draftChangeRequestCount" + (NEW."status" = 'draft')::int
    WHERE "id" = NEW."spaceId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ChangeRequest_space_counters"
AFTER INSERT OR DELETE OR UPDATE OF "spaceId", "status" ON "ChangeRequest"
FOR EACH ROW EXECUTE FUNCTION "space_change_request_counters"();

CREATE FUNCTION "space_comment_counters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'open' AND OLD."parentId" IS NULL THEN
    UPDATE "Space" SET "openCommentCount" = "openCommentCount" - 1 WHERE "id" = OLD."spaceId";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."status" = 'open' AND NEW."parentId" IS NULL THEN
    UPDATE "Space" SET "openCommentCount" = "openCommentCount" + 1 WHERE "id" = NEW."spaceId";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Comment_space_counters"
AFTER INSERT OR DELETE OR UPDATE OF "spaceId", "status", "parentId" ON "Comment"
FOR EACH ROW EXECUTE FUNCTION "space_comment_counters"();

-- Rows written before the counters existed.
UPDATE "Space" s SET
  "changeRequestCount" = c."total",
  "openChangeRequestCount" = c."open",
  "draftChangeRequestCount" = c."draft"
FROM (
  SELECT "spaceId", count(*)::int AS "total", count(*) FILTER (WHERE "status" = 'open')::int AS "open",
    count(*) FILTER (WHERE "status" = 'draft')::int AS "draft"
  FROM "ChangeRequest" GROUP BY "spaceId"
) c
WHERE s."id" = c."spaceId";

UPDATE "Space" s SET "openCommentCount" = c."open"
FROM (SELECT "spaceId", count(*)::int AS "open" FROM "Comment" WHERE "status" = 'open' AND "parentId" IS NULL GROUP BY "spaceId") c
WHERE s."id" = c."spaceId";
