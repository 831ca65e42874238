-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "report_id" UUID,
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "withdrawal_reports" (
    "id" UUID NOT NULL,
    "period_from" TIMESTAMPTZ(3) NOT NULL,
    "period_to" TIMESTAMPTZ(3) NOT NULL,
    "withdrawals" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "filed_at" TIMESTAMPTZ(3),
    "filed_by" TEXT,
    "receipt" TEXT,

    CONSTRAINT "withdrawal_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawal_report_items" (
    "report_id" UUID NOT NULL,
    "withdrawal_id" INTEGER NOT NULL,

    CONSTRAINT "withdrawal_report_items_pkey" PRIMARY KEY ("report_id","withdrawal_id")
);

-- CreateIndex
CREATE INDEX "withdrawals_settled_idx" ON "withdrawals"("state", "settled_at");

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- The contract's fourth state: settled, then included in a report to the Receita Federal marked filed.
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_state_known";
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_state_known"
  CHECK ("state" IN ('pending_approval', 'created', 'sent', 'settled', 'reported', 'failed'));
-- A reported withdrawal names its report, and only a reported one does.
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reported_in_a_report" CHECK (("state" = 'reported') = ("report_id" IS NOT NULL));
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_report_fkey" FOREIGN KEY ("report_id") REFERENCES "withdrawal_reports"("id");
ALTER TABLE "withdrawal_report_items" ADD CONSTRAINT "withdrawal_report_items_report_fkey" FOREIGN KEY ("report_id") REFERENCES "withdrawal_reports"("id");
ALTER TABLE "withdrawal_report_items" ADD CONSTRAINT "withdrawal_report_items_withdrawal_fkey" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id");
ALTER TABLE "withdrawal_reports" ADD CONSTRAINT "withdrawal_reports_period" CHECK ("period_from" < "period_to");
-- Withdrawals settled before the column: their last change was the settlement.
UPDATE "withdrawals" SET "settled_at" = "updated_at" WHERE "state" = 'settled';
