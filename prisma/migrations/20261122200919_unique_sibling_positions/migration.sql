-- Sibling order keys are unique (see the comment on model Collection in prisma/schema.prisma): live
-- spaces and collections under one parent (a collection, or an organization's top level) share one
-- order, and no two of them may hold the same `position`.

-- Repair first: earlier versions could give two live siblings one key (a restored space kept a key
-- another sibling had taken meanwhile). Every sibling group holding a repeated live key, within a table
-- or across spaces and collections, gets fresh keys "d0001", "d0002", … in its current order (position,
-- then ID, as the API sorts). They are valid fractional-index keys (integer part "d" + 4 base-62 digits),
-- so keys computed later, between or after them, work as usual. One statement updates both tables.
WITH "live" AS (
    SELECT 'space' AS "kind", "id", "position", COALESCE("collectionId", 'top:' || "organizationId") AS "parent"
    FROM "Space" WHERE "deletedAt" IS NULL
    UNION ALL
    SELECT 'collection', "id", "position", COALESCE("parentId", 'top:' || "organizationId")
    FROM "Collection" WHERE "deletedAt" IS NULL
), "crowded" AS (
    SELECT "parent" FROM "live" GROUP BY "parent" HAVING count(*) > count(DISTINCT "position")
), "numbered" AS (
    SELECT "kind", "id", row_number() OVER (PARTITION BY "parent" ORDER BY "position", "id") AS "n"
    FROM "live" WHERE "parent" IN (SELECT "parent" FROM "crowded")
), "renumbered" AS (
    SELECT "kind", "id", 'd' || substr("digits", ("n" / 238328 % 62)::int + 1, 1) || substr("digits", ("n" / 3844 % 62)::int + 1, 1)
        || substr("digits", ("n" / 62 % 62)::int + 1, 1) || substr("digits", ("n" % 62)::int + 1, 1) AS "position"
    FROM "numbered", (VALUES ('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')) AS "base62"("digits")
), "spaces" AS (
    UPDATE "Space" SET "position" = "renumbered"."position"
    FROM "renumbered" WHERE "renumbered"."kind" = 'space' AND "Space"."id" = "renumbered"."id"
    RETURNING 1
)
UPDATE "Collection" SET "position" = "renumbered"."position"
FROM "renumbered" WHERE "renumbered"."kind" = 'collection' AND "Collection"."id" = "renumbered"."id";

-- CreateIndex
CREATE UNIQUE INDEX "Collection_top_level_position_key" ON "Collection"("organizationId", "position") WHERE ("parentId" IS NULL AND "deletedAt" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Collection_nested_position_key" ON "Collection"("parentId", "position") WHERE ("parentId" IS NOT NULL AND "deletedAt" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Space_top_level_position_key" ON "Space"("organizationId", "position") WHERE ("collectionId" IS NULL AND "deletedAt" IS NULL);

-- CreateIndex
CREATE UNIQUE INDEX "Space_nested_position_key" ON "Space"("collectionId", "position") WHERE ("collectionId" IS NOT NULL AND "deletedAt" IS NULL);

-- Across the two tables (Prisma does not model triggers; its migration diff leaves them alone): a live
-- space may not take the key of a live collection under the same parent, nor the other way round. The
-- check locks the organization row, as every writer of the tree does first (for them a no-op), so two
-- transactions cannot both pass it. The error is a unique violation, as from the indexes above.
CREATE FUNCTION "check_sibling_position"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM "Organization" WHERE "id" = NEW."organizationId" FOR UPDATE;
    IF TG_TABLE_NAME = 'Space' THEN
        IF NEW."collectionId" IS NULL THEN
            PERFORM 1 FROM "Collection" WHERE "organizationId" = NEW."organizationId" AND "parentId" IS NULL
                AND "position" = NEW."position" AND "deletedAt" IS NULL;
        ELSE
            PERFORM 1 FROM "Collection" WHERE "parentId" = NEW."collectionId" AND "position" = NEW."position" AND "deletedAt" IS NULL;
        END IF;
    ELSE
        IF NEW."parentId" IS NULL THEN
            PERFORM 1 FROM "Space" WHERE "organizationId" = NEW."organizationId" AND "collectionId" IS NULL
                AND "position" = NEW."position" AND "deletedAt" IS NULL;
        ELSE
            PERFORM 1 FROM "Space" WHERE "collectionId" = NEW."parentId" AND "position" = NEW."position" AND "deletedAt" IS NULL;
        END IF;
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION 'A live sibling of this % already holds order key "%"', lower(TG_TABLE_NAME), NEW."position"
            USING ERRCODE = 'unique_violation', CONSTRAINT = TG_TABLE_NAME || '_sibling_position_check';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "Space_sibling_position_check"
    AFTER INSERT OR UPDATE OF "organizationId", "collectionId", "position", "deletedAt" ON "Space"
    FOR EACH ROW WHEN (NEW."deletedAt" IS NULL) EXECUTE FUNCTION "check_sibling_position"();

CREATE TRIGGER "Collection_sibling_position_check"
    AFTER INSERT OR UPDATE OF "organizationId", "parentId", "position", "deletedAt" ON "Collection"
    FOR EACH ROW WHEN (NEW."deletedAt" IS NULL) EXECUTE FUNCTION "check_sibling_position"();
