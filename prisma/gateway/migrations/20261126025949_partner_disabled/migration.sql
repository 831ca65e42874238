-- Operators disable and re-enable partners (docs/api.md: "Operator API"): while disabled_at is set every
-- key of the partner is refused with 403 partner_disabled; its data stays. The indexes serve the partner
-- listing (newest first) and the audit log searched by operator key.

-- AlterTable
ALTER TABLE "partners" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "audit_log_operator_key_id_id_idx" ON "audit_log"("operator_key_id", "id");

-- CreateIndex
CREATE INDEX "partners_created_at_id_idx" ON "partners"("created_at", "id");
