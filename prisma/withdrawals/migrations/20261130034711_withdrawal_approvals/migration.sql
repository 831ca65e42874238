-- AlterTable
ALTER TABLE "partner_limits" ADD COLUMN     "approval_threshold_micros" BIGINT;

-- CreateTable
CREATE TABLE "withdrawal_approvals" (
    "id" UUID NOT NULL,
    "withdrawal_id" INTEGER NOT NULL,
    "partner_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending_approval',
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_by" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "note" TEXT,

    CONSTRAINT "withdrawal_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "withdrawal_approvals_withdrawal_id_key" ON "withdrawal_approvals"("withdrawal_id");

-- CreateIndex
CREATE INDEX "withdrawal_approvals_status_requested_at_idx" ON "withdrawal_approvals"("status", "requested_at");

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- The new state of a withdrawal above its partner's approval threshold.
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_state_known";
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_state_known" CHECK ("state" IN ('pending_approval', 'created', 'sent', 'settled', 'failed'));
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_status_known" CHECK ("status" IN ('pending_approval', 'approved', 'rejected'));
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_withdrawal_fkey" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id");
ALTER TABLE "partner_limits" ADD CONSTRAINT "partner_limits_threshold_non_negative" CHECK (coalesce("approval_threshold_micros", 0) >= 0);
