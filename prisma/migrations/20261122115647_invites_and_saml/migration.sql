-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role",
    "sso" BOOLEAN NOT NULL DEFAULT false,
    "invitedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acceptedAt" TIMESTAMP(3),

    CONSTRAINT "Invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LinkInvite" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "role" "Role",
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LinkInvite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SamlProvider" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "entityID" TEXT,
    "certificate" TEXT,
    "ssoURL" TEXT,
    "defaultTeamId" TEXT,
    "defaultRole" "Role",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SamlProvider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SamlAssertionUse" (
    "assertionId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SamlAssertionUse_pkey" PRIMARY KEY ("assertionId")
);

-- CreateIndex
CREATE INDEX "Invite_userId_createdAt_idx" ON "Invite"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_organizationId_userId_key" ON "Invite"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "LinkInvite_organizationId_createdAt_id_idx" ON "LinkInvite"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SamlProvider_organizationId_createdAt_id_idx" ON "SamlProvider"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "SamlAssertionUse_expiresAt_idx" ON "SamlAssertionUse"("expiresAt");

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invite" ADD CONSTRAINT "Invite_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LinkInvite" ADD CONSTRAINT "LinkInvite_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SamlProvider" ADD CONSTRAINT "SamlProvider_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
