-- CreateTable
-- UNLOGGED (edited by hand; Prisma's schema cannot say it): counters need no crash safety, and a logged
-- table would wait for a WAL flush on every counted request (about 4 ms each on a plain disk). After a
-- crash PostgreSQL empties the table, which only resets the current windows.
CREATE UNLOGGED TABLE "RateLimitCounter" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "RateLimitCounter_expire_idx" ON "RateLimitCounter"("expire");
