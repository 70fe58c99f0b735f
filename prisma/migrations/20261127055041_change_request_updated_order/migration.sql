-- CreateIndex
CREATE INDEX "ChangeRequest_spaceId_status_updatedAt_id_idx" ON "ChangeRequest"("spaceId", "status", "updatedAt", "id");
