-- One pending invitation per person and organization, instead of one invitation ever: accepted
-- invitations no longer stop a person who has left from being invited again (with a new role).
-- DropIndex
DROP INDEX "Invite_organizationId_userId_key";

-- CreateIndex
CREATE UNIQUE INDEX "Invite_pending_key" ON "Invite"("organizationId", "userId") WHERE ("acceptedAt" IS NULL);
