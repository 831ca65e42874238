-- The list of GET /partner/v1/pix-key (docs/api.md: "Lists"): newest first by (created_at, id), keyset-paged;
-- the document filter uses pix_keys_partner_id_document_created_at_idx (a user has few keys).

-- CreateIndex
CREATE INDEX "pix_keys_list_idx" ON "pix_keys"("partner_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "pix_keys_list_by_state_idx" ON "pix_keys"("partner_id", "state", "created_at", "id");
