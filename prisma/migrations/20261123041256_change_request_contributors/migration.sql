-- CreateTable
CREATE TABLE "ChangeRequestContributor" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    CONSTRAINT "ChangeRequestContributor_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateIndex
CREATE INDEX "ChangeRequestContributor_userId_changeRequestId_idx" ON "ChangeRequestContributor"("userId", "changeRequestId");

-- AddForeignKey
ALTER TABLE "ChangeRequestContributor" ADD CONSTRAINT "ChangeRequestContributor_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "ChangeRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangeRequestContributor" ADD CONSTRAINT "ChangeRequestContributor_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every change request so far was written by its author alone.
INSERT INTO "ChangeRequestContributor" ("changeRequestId", "userId")
SELECT "id", "createdById" FROM "ChangeRequest" WHERE "createdById" IS NOT NULL
ON CONFLICT DO NOTHING;
