-- Content trees (src/modules/content/content-tree.ts): a revision's pages and files stop being rows of
-- their own, copied by every revision; they become two trees of content-addressed nodes, shared by the
-- revisions that hold the same parts, so a one-page change writes a few nodes whatever the size of the
-- space. Existing revisions are carried over here: each revision's pages depth first (siblings by
-- their order key, then ID; a page whose parent is missing at the top level, as the readers showed
-- it) and its files by name then ID, cut into leaves of 32 entries and nodes of 32 children. Hashes
-- are computed here from PostgreSQL's JSON text and by the application from its own: a node written
-- by both under two hashes is stored twice, never confused (a hash names one content).

-- AlterTable
ALTER TABLE "Revision" ADD COLUMN     "fileTree" TEXT,
ADD COLUMN     "pageTree" TEXT;

-- CreateTable
CREATE TABLE "ContentNode" (
    "hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "items" JSON NOT NULL,
    "ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "documents" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentNode_pkey" PRIMARY KEY ("hash")
);

-- Reading a tree inside a statement. `content_leaves`: the leaves under a root, with the position of
-- their first entry in the whole sequence (inner items are [hash, count, start]); only the nodes above
-- the leaves are read. `content_items`: every entry, with its position. `content_find`: the entries
-- with these IDs (through the index of leaf IDs), with their positions.
-- `items` is `json`, not `jsonb`: kept as the text the application wrote, a whole tree is read back
-- without converting it (jsonb's output costs ~10 ms per 1.7 MB, a 5,000-page tree); the few items a
-- statement looks into are parsed then.
CREATE FUNCTION content_leaves(root text) RETURNS TABLE ("hash" text, "start" bigint, "count" integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH RECURSIVE walk("hash", "level", "start", "count") AS (
    SELECT n."hash", n."level", 0::bigint, n."count" FROM "ContentNode" n WHERE n."hash" = root
    UNION ALL
    SELECT c.item->>0, w."level" - 1, w."start" + (c.item->>2)::bigint, (c.item->>1)::int
    FROM walk w JOIN "ContentNode" p ON p."hash" = w."hash"
    CROSS JOIN LATERAL json_array_elements(p."items") AS c(item)
    WHERE w."level" > 0
  )
  SELECT "hash", "start", "count" FROM walk WHERE "level" = 0
$$;

CREATE FUNCTION content_items(root text) RETURNS TABLE ("position" bigint, "item" json)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT l."start" + o.i - 1, o.item
  FROM content_leaves(root) l JOIN "ContentNode" n ON n."hash" = l."hash"
  CROSS JOIN LATERAL json_array_elements(n."items") WITH ORDINALITY AS o(item, i)
$$;

CREATE FUNCTION content_find(root text, wanted text[]) RETURNS TABLE ("position" bigint, "item" json)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT l."start" + u.k - 1, n."items" -> (u.k::int - 1)
  FROM content_leaves(root) l JOIN "ContentNode" n ON n."hash" = l."hash" AND n."ids" && wanted
  CROSS JOIN LATERAL unnest(n."ids") WITH ORDINALITY AS u(id, k)
  WHERE u.id = ANY(wanted)
$$;

-- Existing revisions: their entries in order, as the application writes them (src/modules/content/revision-content.ts).
CREATE TEMPORARY TABLE "content_entry" ("kind" text, "revisionId" text, "ordinal" bigint, "id" text, "documentHash" text, "entry" jsonb);

INSERT INTO "content_entry"
WITH RECURSIVE pages AS (
  SELECT p.*,
         CASE WHEN EXISTS (SELECT 1 FROM "Page" q WHERE q."revisionId" = p."revisionId" AND q."id" = p."parentId") THEN p."parentId" END AS "parent"
  FROM "Page" p
),
ranked AS (
  SELECT p.*,
         row_number() OVER w AS "n",
         lag(p."id") OVER w AS "prev"
  FROM pages p
  WINDOW w AS (PARTITION BY p."revisionId", p."parent" ORDER BY p."position" COLLATE "C", p."id" COLLATE "C")
),
walk AS (
  SELECT k."revisionId", k."id", ARRAY[k."n"] AS "sortKey", ARRAY[k."id"] AS "lineage" FROM ranked k WHERE k."parent" IS NULL
  UNION ALL
  SELECT k."revisionId", k."id", w."sortKey" || k."n", w."lineage" || k."id"
  FROM walk w JOIN ranked k ON k."revisionId" = w."revisionId" AND k."parent" = w."id"
),
descendants AS (
  SELECT w."revisionId", a."id", count(*) - 1 AS "count" FROM walk w CROSS JOIN LATERAL unnest(w."lineage") AS a("id") GROUP BY 1, 2
),
built AS (
  SELECT w."revisionId", w."sortKey", k."id", k."documentHash",
         jsonb_build_object(
           'id', k."id", 'parentId', k."parent", 'prev', k."prev", 'type', k."type"::text, 'title', k."title", 'emoji', k."emoji",
           'slug', k."slug", 'path', k."path", 'description', k."description", 'documentHash', k."documentHash",
           'hidden', CASE WHEN k."hidden" THEN true END, 'layout', k."layout", 'computed', k."computed", 'descendants', d."count",
           'createdAt', (extract(epoch FROM k."createdAt") * 1000)::bigint, 'updatedAt', (extract(epoch FROM k."updatedAt") * 1000)::bigint
         ) AS "entry"
  FROM walk w
  JOIN ranked k ON k."revisionId" = w."revisionId" AND k."id" = w."id"
  JOIN descendants d ON d."revisionId" = w."revisionId" AND d."id" = w."id"
)
SELECT 'pages', b."revisionId", row_number() OVER (PARTITION BY b."revisionId" ORDER BY b."sortKey") - 1, b."id", b."documentHash",
       (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(b."entry") e WHERE jsonb_typeof(e.value) <> 'null')
FROM built b;

INSERT INTO "content_entry"
SELECT 'files', f."revisionId", row_number() OVER (PARTITION BY f."revisionId" ORDER BY f."name" COLLATE "C", f."id" COLLATE "C") - 1, f."id", NULL,
       (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(jsonb_build_object(
          'id', f."id", 'name', f."name", 'contentType', f."contentType", 'size', f."size", 'width', f."width", 'height', f."height",
          'blobHash', f."blobHash", 'createdAt', (extract(epoch FROM f."createdAt") * 1000)::bigint)) e WHERE jsonb_typeof(e.value) <> 'null')
FROM "File" f;

-- Leaves (level 0), then each level above, until each tree has one node: its root.
CREATE TEMPORARY TABLE "content_level" ("kind" text, "revisionId" text, "level" int, "ordinal" bigint, "hash" text, "count" int);

INSERT INTO "content_level"
SELECT l."kind", l."revisionId", 0, l."leaf", encode(sha256(convert_to(l."kind" || ':0:' || l."items"::text, 'UTF8')), 'hex'), l."count"
FROM (
  SELECT e."kind", e."revisionId", e."ordinal" / 32 AS "leaf", jsonb_agg(e."entry" ORDER BY e."ordinal") AS "items", count(*)::int AS "count"
  FROM "content_entry" e GROUP BY 1, 2, 3
) l;

INSERT INTO "ContentNode" ("hash", "kind", "level", "count", "items", "ids", "documents")
SELECT DISTINCT ON (c."hash") c."hash", c."kind", 0, c."count", l."items"::json, l."ids", l."documents"
FROM "content_level" c
JOIN (
  SELECT e."kind", e."revisionId", e."ordinal" / 32 AS "leaf", jsonb_agg(e."entry" ORDER BY e."ordinal") AS "items",
         array_agg(e."id" ORDER BY e."ordinal") AS "ids", array_remove(array_agg(e."documentHash" ORDER BY e."ordinal"), NULL) AS "documents"
  FROM "content_entry" e GROUP BY 1, 2, 3
) l ON l."kind" = c."kind" AND l."revisionId" = c."revisionId" AND l."leaf" = c."ordinal"
WHERE c."level" = 0
ON CONFLICT DO NOTHING;

DO $$
DECLARE
  lvl int := 0;
BEGIN
  WHILE EXISTS (SELECT 1 FROM "content_level" WHERE "level" = lvl GROUP BY "kind", "revisionId" HAVING count(*) > 1) LOOP
    CREATE TEMPORARY TABLE "content_group" AS
    SELECT c."kind", c."revisionId", c."ordinal" / 32 AS "ordinal",
           jsonb_agg(jsonb_build_array(c."hash", c."count", c."before") ORDER BY c."ordinal") AS "items", sum(c."count")::int AS "count"
    FROM (
      SELECT x.*, coalesce(sum(x."count") OVER (PARTITION BY x."kind", x."revisionId", x."ordinal" / 32 ORDER BY x."ordinal"
                                                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS "before"
      FROM "content_level" x
      WHERE x."level" = lvl
        AND (x."kind", x."revisionId") IN (SELECT "kind", "revisionId" FROM "content_level" WHERE "level" = lvl GROUP BY 1, 2 HAVING count(*) > 1)
    ) c
    GROUP BY 1, 2, 3;

    INSERT INTO "content_level"
    SELECT g."kind", g."revisionId", lvl + 1, g."ordinal", encode(sha256(convert_to(g."kind" || ':' || (lvl + 1) || ':' || g."items"::text, 'UTF8')), 'hex'), g."count"
    FROM "content_group" g;

    INSERT INTO "ContentNode" ("hash", "kind", "level", "count", "items")
    SELECT DISTINCT ON (h) h, g."kind", lvl + 1, g."count", g."items"::json
    FROM "content_group" g CROSS JOIN LATERAL (SELECT encode(sha256(convert_to(g."kind" || ':' || (lvl + 1) || ':' || g."items"::text, 'UTF8')), 'hex') AS h) x
    ON CONFLICT DO NOTHING;

    DROP TABLE "content_group";
    lvl := lvl + 1;
  END LOOP;
END $$;

-- Each tree's root: its one node at its highest level.
UPDATE "Revision" r SET "pageTree" = t."hash"
FROM (SELECT DISTINCT ON ("revisionId") "revisionId", "hash" FROM "content_level" WHERE "kind" = 'pages' ORDER BY "revisionId", "level" DESC) t
WHERE t."revisionId" = r."id";
UPDATE "Revision" r SET "fileTree" = t."hash"
FROM (SELECT DISTINCT ON ("revisionId") "revisionId", "hash" FROM "content_level" WHERE "kind" = 'files' ORDER BY "revisionId", "level" DESC) t
WHERE t."revisionId" = r."id";

DROP TABLE "content_entry";
DROP TABLE "content_level";

-- DropForeignKey
ALTER TABLE "Comment" DROP CONSTRAINT "Comment_targetRevisionId_targetPageId_fkey";

-- DropForeignKey
ALTER TABLE "File" DROP CONSTRAINT "File_blobHash_fkey";

-- DropForeignKey
ALTER TABLE "File" DROP CONSTRAINT "File_revisionId_fkey";

-- DropForeignKey
ALTER TABLE "Page" DROP CONSTRAINT "Page_documentHash_fkey";

-- DropForeignKey
ALTER TABLE "Page" DROP CONSTRAINT "Page_revisionId_fkey";

-- DropTable
DROP TABLE "File";

-- DropTable
DROP TABLE "Page";

-- CreateIndex
CREATE INDEX "ContentNode_ids_idx" ON "ContentNode" USING GIN ("ids");

-- CreateIndex
CREATE INDEX "ContentNode_documents_idx" ON "ContentNode" USING GIN ("documents");

-- CreateIndex
CREATE INDEX "Revision_pageTree_idx" ON "Revision"("pageTree");

-- CreateIndex
CREATE INDEX "Revision_fileTree_idx" ON "Revision"("fileTree");

-- AddForeignKey
ALTER TABLE "Revision" ADD CONSTRAINT "Revision_pageTree_fkey" FOREIGN KEY ("pageTree") REFERENCES "ContentNode"("hash") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Revision" ADD CONSTRAINT "Revision_fileTree_fkey" FOREIGN KEY ("fileTree") REFERENCES "ContentNode"("hash") ON DELETE NO ACTION ON UPDATE CASCADE;
