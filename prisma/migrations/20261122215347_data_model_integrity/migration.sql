-- CreateEnum
CREATE TYPE "OrganizationType" AS ENUM ('business', 'community');

-- CreateEnum
CREATE TYPE "BillingProduct" AS ENUM ('free_2024', 'plus_2024', 'pro_2024', 'enterprise_2024', 'community_2024', 'free', 'plus', 'pro', 'internal');

-- CreateEnum
CREATE TYPE "SiteType" AS ENUM ('basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium');

-- CreateEnum
CREATE TYPE "PageType" AS ENUM ('document', 'group', 'link', 'computed');

-- CreateEnum
CREATE TYPE "RevisionType" AS ENUM ('edits', 'merge', 'rollback', 'update', 'computed');

-- Columns now nullable: a change request or comment outlives its author (their user reference becomes NULL).
-- AlterTable
ALTER TABLE "ChangeRequest" ALTER COLUMN "createdById" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "targetRevisionId" TEXT,
ALTER COLUMN "postedById" DROP NOT NULL;

-- Strings become enums. Prisma's diff would drop and re-add each column (losing its values); they are
-- converted in place instead. A value outside the enum can only have been written by hand (the server
-- only ever wrote the defaults): it becomes the column's default, as the server would have written it.
UPDATE "Organization" SET "type" = 'business' WHERE "type" NOT IN ('business', 'community');
ALTER TABLE "Organization" ALTER COLUMN "type" DROP DEFAULT;
ALTER TABLE "Organization" ALTER COLUMN "type" TYPE "OrganizationType" USING "type"::"OrganizationType";
ALTER TABLE "Organization" ALTER COLUMN "type" SET DEFAULT 'business';

UPDATE "Organization" SET "plan" = 'free_2024'
WHERE "plan" NOT IN ('free_2024', 'plus_2024', 'pro_2024', 'enterprise_2024', 'community_2024', 'free', 'plus', 'pro', 'internal');
ALTER TABLE "Organization" ALTER COLUMN "plan" DROP DEFAULT;
ALTER TABLE "Organization" ALTER COLUMN "plan" TYPE "BillingProduct" USING "plan"::"BillingProduct";
ALTER TABLE "Organization" ALTER COLUMN "plan" SET DEFAULT 'free_2024';

UPDATE "Page" SET "type" = 'document' WHERE "type" NOT IN ('document', 'group', 'link', 'computed');
ALTER TABLE "Page" ALTER COLUMN "type" DROP DEFAULT;
ALTER TABLE "Page" ALTER COLUMN "type" TYPE "PageType" USING "type"::"PageType";
ALTER TABLE "Page" ALTER COLUMN "type" SET DEFAULT 'document';

UPDATE "Revision" SET "type" = 'edits' WHERE "type" NOT IN ('edits', 'merge', 'rollback', 'update', 'computed');
ALTER TABLE "Revision" ALTER COLUMN "type" DROP DEFAULT;
ALTER TABLE "Revision" ALTER COLUMN "type" TYPE "RevisionType" USING "type"::"RevisionType";
ALTER TABLE "Revision" ALTER COLUMN "type" SET DEFAULT 'edits';

UPDATE "Site" SET "type" = 'basic' WHERE "type" NOT IN ('basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium');
ALTER TABLE "Site" ALTER COLUMN "type" DROP DEFAULT;
ALTER TABLE "Site" ALTER COLUMN "type" TYPE "SiteType" USING "type"::"SiteType";
ALTER TABLE "Site" ALTER COLUMN "type" SET DEFAULT 'basic';

-- Rows that would violate the new foreign keys: these columns had none, so a reference may point at a
-- row deleted since (or never written by this server: nothing here deletes users or revisions, but a
-- database edited by hand may hold anything).
-- References to users that no longer exist become NULL, as the foreign keys below will do from now on;
-- a reaction belongs to its user and goes.
UPDATE "Revision" SET "createdById" = NULL WHERE "createdById" IS NOT NULL AND "createdById" NOT IN (SELECT "id" FROM "User");
UPDATE "ChangeRequest" SET "createdById" = NULL WHERE "createdById" IS NOT NULL AND "createdById" NOT IN (SELECT "id" FROM "User");
UPDATE "Comment" SET "postedById" = NULL WHERE "postedById" IS NOT NULL AND "postedById" NOT IN (SELECT "id" FROM "User");
UPDATE "Comment" SET "resolvedById" = NULL WHERE "resolvedById" IS NOT NULL AND "resolvedById" NOT IN (SELECT "id" FROM "User");
UPDATE "Invite" SET "invitedById" = NULL WHERE "invitedById" IS NOT NULL AND "invitedById" NOT IN (SELECT "id" FROM "User");
UPDATE "LinkInvite" SET "createdById" = NULL WHERE "createdById" IS NOT NULL AND "createdById" NOT IN (SELECT "id" FROM "User");
DELETE FROM "CommentReaction" WHERE "userId" NOT IN (SELECT "id" FROM "User");
-- A default site that no longer exists: no default content, as when it is deleted from now on.
UPDATE "Organization" SET "defaultContentSiteId" = NULL
WHERE "defaultContentSiteId" IS NOT NULL AND "defaultContentSiteId" NOT IN (SELECT "id" FROM "Site");
-- A space's active revision must be one of its own revisions (which also makes it unique per space); a
-- space without one shows `revision: ""`, as before its first revision existed.
UPDATE "Space" SET "revisionId" = NULL
WHERE "revisionId" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "Revision" WHERE "Revision"."id" = "Space"."revisionId" AND "Revision"."spaceId" = "Space"."id");
-- A change request whose own revision or starting revision is gone has no content to show or merge: it
-- is deleted (with its comments). Merge references that point nowhere become NULL.
DELETE FROM "ChangeRequest"
WHERE "revisionId" NOT IN (SELECT "id" FROM "Revision") OR "revisionInitialId" NOT IN (SELECT "id" FROM "Revision");
UPDATE "ChangeRequest" SET "revisionMergedAncestorId" = NULL
WHERE "revisionMergedAncestorId" IS NOT NULL AND "revisionMergedAncestorId" NOT IN (SELECT "id" FROM "Revision");
UPDATE "ChangeRequest" SET "revisionMergedId" = NULL
WHERE "revisionMergedId" IS NOT NULL AND "revisionMergedId" NOT IN (SELECT "id" FROM "Revision");
-- Comments on a page get the revision the page is found in (new column): their change request's
-- revision, else their space's active one, when the page exists there. Otherwise it stays NULL and the
-- page ID unchecked.
UPDATE "Comment" SET "targetRevisionId" = "found"."revisionId"
FROM (
    SELECT "Comment"."id", COALESCE("ChangeRequest"."revisionId", "Space"."revisionId") AS "revisionId"
    FROM "Comment"
    JOIN "Space" ON "Space"."id" = "Comment"."spaceId"
    LEFT JOIN "ChangeRequest" ON "ChangeRequest"."id" = "Comment"."changeRequestId"
    WHERE "Comment"."targetPageId" IS NOT NULL
) AS "found"
WHERE "Comment"."id" = "found"."id"
  AND EXISTS (SELECT 1 FROM "Page" WHERE "Page"."revisionId" = "found"."revisionId" AND "Page"."id" = "Comment"."targetPageId");

-- CreateIndex
CREATE INDEX "ChangeRequest_revisionId_idx" ON "ChangeRequest"("revisionId");

-- CreateIndex
CREATE INDEX "ChangeRequest_revisionInitialId_idx" ON "ChangeRequest"("revisionInitialId");

-- CreateIndex
CREATE INDEX "ChangeRequest_revisionMergedAncestorId_idx" ON "ChangeRequest"("revisionMergedAncestorId");

-- CreateIndex
CREATE INDEX "ChangeRequest_revisionMergedId_idx" ON "ChangeRequest"("revisionMergedId");

-- CreateIndex
CREATE INDEX "Comment_targetRevisionId_targetPageId_idx" ON "Comment"("targetRevisionId", "targetPageId");

-- CreateIndex
CREATE UNIQUE INDEX "Space_revisionId_key" ON "Space"("revisionId");

-- AddForeignKey
ALTER TABLE "Organization" ADD CONSTRAINT "Organization_defaultContentSiteId_fkey" FOREIGN KEY ("defaultContentSiteId") REFERENCES "Site"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Space" ADD CONSTRAINT "Space_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Revision" ADD CONSTRAINT "Revision_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_revisionInitialId_fkey" FOREIGN KEY ("revisionInitialId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_revisionMergedAncestorId_fkey" FOREIGN KEY ("revisionMergedAncestorId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequest" ADD CONSTRAINT "ChangeRequest_revisionMergedId_fkey" FOREIGN KEY ("revisionMergedId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_resolvedById_fkey" FOREIGN KEY ("resolvedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_targetRevisionId_fkey" FOREIGN KEY ("targetRevisionId") REFERENCES "Revision"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_targetRevisionId_targetPageId_fkey" FOREIGN KEY ("targetRevisionId", "targetPageId") REFERENCES "Page"("revisionId", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CommentReaction" ADD CONSTRAINT "CommentReaction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
