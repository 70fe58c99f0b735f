-- CreateTable
CREATE TABLE "CollectionUserGrant" (
    "collectionId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CollectionUserGrant_pkey" PRIMARY KEY ("collectionId","userId")
);

-- CreateTable
CREATE TABLE "CollectionTeamGrant" (
    "collectionId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CollectionTeamGrant_pkey" PRIMARY KEY ("collectionId","teamId")
);

-- CreateTable
CREATE TABLE "SiteUserGrant" (
    "siteId" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteUserGrant_pkey" PRIMARY KEY ("siteId","userId")
);

-- CreateTable
CREATE TABLE "SiteTeamGrant" (
    "siteId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SiteTeamGrant_pkey" PRIMARY KEY ("siteId","teamId")
);

-- CreateTable
CREATE TABLE "InviteGrant" (
    "id" TEXT NOT NULL,
    "inviteId" TEXT NOT NULL,
    "spaceId" TEXT,
    "collectionId" TEXT,
    "siteId" TEXT,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InviteGrant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CollectionUserGrant_collectionId_createdAt_userId_idx" ON "CollectionUserGrant"("collectionId", "createdAt", "userId");

-- CreateIndex
CREATE INDEX "CollectionUserGrant_organizationId_userId_idx" ON "CollectionUserGrant"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "CollectionTeamGrant_collectionId_createdAt_teamId_idx" ON "CollectionTeamGrant"("collectionId", "createdAt", "teamId");

-- CreateIndex
CREATE INDEX "CollectionTeamGrant_teamId_idx" ON "CollectionTeamGrant"("teamId");

-- CreateIndex
CREATE INDEX "SiteUserGrant_siteId_createdAt_userId_idx" ON "SiteUserGrant"("siteId", "createdAt", "userId");

-- CreateIndex
CREATE INDEX "SiteUserGrant_organizationId_userId_idx" ON "SiteUserGrant"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "SiteTeamGrant_siteId_createdAt_teamId_idx" ON "SiteTeamGrant"("siteId", "createdAt", "teamId");

-- CreateIndex
CREATE INDEX "SiteTeamGrant_teamId_idx" ON "SiteTeamGrant"("teamId");

-- CreateIndex
CREATE INDEX "InviteGrant_spaceId_idx" ON "InviteGrant"("spaceId");

-- CreateIndex
CREATE INDEX "InviteGrant_collectionId_idx" ON "InviteGrant"("collectionId");

-- CreateIndex
CREATE INDEX "InviteGrant_siteId_idx" ON "InviteGrant"("siteId");

-- CreateIndex
CREATE UNIQUE INDEX "InviteGrant_space_key" ON "InviteGrant"("inviteId", "spaceId") WHERE ("spaceId" IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "InviteGrant_collection_key" ON "InviteGrant"("inviteId", "collectionId") WHERE ("collectionId" IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "InviteGrant_site_key" ON "InviteGrant"("inviteId", "siteId") WHERE ("siteId" IS NOT NULL);

-- AddForeignKey
ALTER TABLE "CollectionUserGrant" ADD CONSTRAINT "CollectionUserGrant_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CollectionUserGrant" ADD CONSTRAINT "CollectionUserGrant_organizationId_userId_fkey" FOREIGN KEY ("organizationId", "userId") REFERENCES "Member"("organizationId", "userId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CollectionTeamGrant" ADD CONSTRAINT "CollectionTeamGrant_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CollectionTeamGrant" ADD CONSTRAINT "CollectionTeamGrant_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteUserGrant" ADD CONSTRAINT "SiteUserGrant_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteUserGrant" ADD CONSTRAINT "SiteUserGrant_organizationId_userId_fkey" FOREIGN KEY ("organizationId", "userId") REFERENCES "Member"("organizationId", "userId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteTeamGrant" ADD CONSTRAINT "SiteTeamGrant_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SiteTeamGrant" ADD CONSTRAINT "SiteTeamGrant_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteGrant" ADD CONSTRAINT "InviteGrant_inviteId_fkey" FOREIGN KEY ("inviteId") REFERENCES "Invite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteGrant" ADD CONSTRAINT "InviteGrant_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "Space"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteGrant" ADD CONSTRAINT "InviteGrant_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "Collection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InviteGrant" ADD CONSTRAINT "InviteGrant_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A promised grant names exactly one thing (Prisma's schema cannot state a CHECK; later diffs leave it alone).
ALTER TABLE "InviteGrant" ADD CONSTRAINT "InviteGrant_one_target" CHECK (num_nonnulls("spaceId", "collectionId", "siteId") = 1);
