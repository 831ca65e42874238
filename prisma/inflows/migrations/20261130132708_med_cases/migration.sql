-- The old unique index (end_to_end_id, type, refund_id) becomes a partial one (below): MED lines are outside it.
DROP INDEX "brl_ledger_entries_end_to_end_id_type_refund_id_key";

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "blocked_brl_cents" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "brl_ledger_entries" ADD COLUMN     "blocked_after_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "blocked_delta_cents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "med_case_id" UUID;

-- AlterTable
ALTER TABLE "pix_in_refunds" ADD COLUMN     "med_case_id" UUID;

-- CreateTable
CREATE TABLE "med_cases" (
    "id" BIGSERIAL NOT NULL,
    "case_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "end_to_end_id" CHAR(32) NOT NULL,
    "partner_id" UUID,
    "document" CHAR(11),
    "asked_cents" BIGINT NOT NULL,
    "blocked_cents" BIGINT NOT NULL DEFAULT 0,
    "returned_cents" BIGINT NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "details" TEXT,
    "infraction_report_id" UUID,
    "opened_by" CHAR(8) NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "attention" TEXT,
    "dict_result" TEXT,
    "rejection_reason" TEXT,
    "analysis_details" TEXT,
    "refund_id" BIGINT,
    "refund_transaction_id" CHAR(32),
    "decided_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "med_cases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "med_cases_case_id_key" ON "med_cases"("case_id");

-- CreateIndex
CREATE INDEX "med_cases_status_id_idx" ON "med_cases"("status", "id");

-- CreateIndex
CREATE INDEX "med_cases_partner_id_status_id_idx" ON "med_cases"("partner_id", "status", "id");

-- CreateIndex
CREATE INDEX "med_cases_end_to_end_id_id_idx" ON "med_cases"("end_to_end_id", "id");

-- Added by hand (Prisma cannot express CHECK constraints nor partial indexes) ------------------------------
-- A credit, a refund and its reversal still happen once each; MED lines (a case may block and release more
-- than once) are ordered by the case's row and the end-to-end id's advisory lock instead.
CREATE UNIQUE INDEX "brl_ledger_entries_movement_once" ON "brl_ledger_entries"("end_to_end_id", "type", "refund_id")
  WHERE "type" IN ('pix_in_credit', 'pix_in_refund', 'pix_in_refund_reversal');
-- Blocked cents are the user's, out of the available ones: never negative either.
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_blocked_not_negative" CHECK ("blocked_brl_cents" >= 0);
ALTER TABLE "pix_inflows" DROP CONSTRAINT "pix_inflows_status_known";
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_status_known"
  CHECK ("status" IN ('processing', 'approved', 'denied', 'success', 'credited', 'failed', 'blocked', 'partially_returned', 'returned'));
ALTER TABLE "brl_ledger_entries" DROP CONSTRAINT "brl_ledger_entries_type_known";
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_type_known"
  CHECK ("type" IN ('pix_in_credit', 'pix_in_refund', 'pix_in_refund_reversal', 'med_block', 'med_release', 'med_return', 'med_return_reversal'));
-- A block moves cents from available to blocked, a release back; a MED return takes them out of blocked, its
-- reversal puts them back. Each names its case; the returns name their refund too.
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_med_case_named"
  CHECK (("type" LIKE 'med\_%') = ("med_case_id" IS NOT NULL));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_med_block_moves"
  CHECK ("type" <> 'med_block' OR ("blocked_delta_cents" > 0 AND "available_delta_cents" = -"blocked_delta_cents" AND "refund_id" = 0));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_med_release_moves"
  CHECK ("type" <> 'med_release' OR ("blocked_delta_cents" < 0 AND "available_delta_cents" = -"blocked_delta_cents" AND "refund_id" = 0));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_med_return_moves"
  CHECK ("type" <> 'med_return' OR ("blocked_delta_cents" < 0 AND "available_delta_cents" = 0 AND "refund_id" > 0));
ALTER TABLE "brl_ledger_entries" ADD CONSTRAINT "brl_ledger_entries_med_return_reversal_moves"
  CHECK ("type" <> 'med_return_reversal' OR ("blocked_delta_cents" > 0 AND "available_delta_cents" = 0 AND "refund_id" > 0));
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_kind_known" CHECK ("kind" IN ('infraction_report', 'refund_request'));
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_status_known"
  CHECK ("status" IN ('open', 'agreed', 'disagreed', 'returning', 'returned', 'rejected'));
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_cents_bounded"
  CHECK ("asked_cents" >= 0 AND "blocked_cents" >= 0 AND "blocked_cents" <= "asked_cents" AND "returned_cents" >= 0 AND "returned_cents" <= "asked_cents");
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_dict_result_known"
  CHECK ("dict_result" IS NULL OR "dict_result" IN ('AGREED', 'DISAGREED', 'TOTALLY_ACCEPTED', 'PARTIALLY_ACCEPTED', 'REJECTED'));
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_user_known" CHECK (("partner_id" IS NULL) = ("document" IS NULL));
