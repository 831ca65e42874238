-- The lists of GET /partner/v1/withdrawals/usdt (docs/api.md: "Lists"): newest first by (created_at, id),
-- keyset-paged, so each page is one backward range read of one of these, however deep (docs/operations.md:
-- "Lists at a million rows").

-- CreateIndex
CREATE INDEX "withdrawals_list_idx" ON "withdrawals"("partner_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "withdrawals_list_by_document_idx" ON "withdrawals"("partner_id", "document", "created_at", "id");

-- CreateIndex
CREATE INDEX "withdrawals_list_by_state_idx" ON "withdrawals"("partner_id", "state", "created_at", "id");
