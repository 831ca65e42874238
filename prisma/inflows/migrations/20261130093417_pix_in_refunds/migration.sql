-- DropIndex
DROP INDEX "brl_ledger_entries_end_to_end_id_key";

-- AlterTable
ALTER TABLE "brl_ledger_entries" ADD COLUMN     "refund_id" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "pix_inflows" ADD COLUMN     "refunded_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "returned_cents" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "pix_in_refunds" (
    "id" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "end_to_end_id" CHAR(32) NOT NULL,
    "idempotency_key" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "rtr_id" CHAR(32),
    "failure_reason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "pix_in_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pix_in_refunds_provider_id_key" ON "pix_in_refunds"("provider_id");

-- CreateIndex
CREATE INDEX "pix_in_refunds_end_to_end_id_id_idx" ON "pix_in_refunds"("end_to_end_id", "id");

-- CreateIndex
CREATE INDEX "pix_in_refunds_status_next_attempt_at_idx" ON "pix_in_refunds"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "pix_in_refunds_partner_id_idempotency_key_key" ON "pix_in_refunds"("partner_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "brl_ledger_entries_end_to_end_id_type_refund_id_key" ON "brl_ledger_entries"("end_to_end_id", "type", "refund_id");

-- Added by hand (Prisma cannot express CHECK constraints) ----------------------------------------
-- A refund never takes back more than the inflow brought, nor returns more than it reserved.
ALTER TABLE "pix_inflows" DROP CONSTRAINT "pix_inflows_status_known";
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_status_known"
  CHECK ("status" IN ('processing', 'approved', 'denied', 'success', 'credited', 'failed', 'partially_returned', 'returned'));
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_refunds_within_amount"
  CHECK ("returned_cents" >= 0 AND "returned_cents" <= "refunded_cents" AND "refunded_cents" <= "amount_cents");
ALTER TABLE "pix_in_refunds" ADD CONSTRAINT "pix_in_refunds_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "pix_in_refunds" ADD CONSTRAINT "pix_in_refunds_status_known" CHECK ("status" IN ('created', 'processing', 'success', 'failed'));
ALTER TABLE "pix_in_refunds" ADD CONSTRAINT "pix_in_refunds_provider_id_format" CHECK ("provider_id" ~ '^[a-zA-Z0-9]{1,35}$');
-- A refund's debit is negative, its reversal (a failed refund credited back) positive; both name the refund.
ALTER TABLE "brl_ledger_entries" DROP CONSTRAINT "brl_ledger_entries_type_known";
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_type_known"
  CHECK ("type" IN ('pix_in_credit', 'pix_in_refund', 'pix_in_refund_reversal'));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_refund_debit_negative"
  CHECK ("type" <> 'pix_in_refund' OR ("available_delta_cents" < 0 AND "refund_id" > 0));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_refund_reversal_positive"
  CHECK ("type" <> 'pix_in_refund_reversal' OR ("available_delta_cents" > 0 AND "refund_id" > 0));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_credit_no_refund" CHECK ("type" <> 'pix_in_credit' OR "refund_id" = 0);
