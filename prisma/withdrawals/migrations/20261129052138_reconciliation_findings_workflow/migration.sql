-- DropIndex
DROP INDEX "reconciliation_findings_network_kind_withdrawal_id_key";

-- AlterTable
ALTER TABLE "hot_wallets" ADD COLUMN     "registered_block" BIGINT,
ADD COLUMN     "scanned_block" BIGINT,
ADD COLUMN     "stopped_by" BIGINT;

-- AlterTable
ALTER TABLE "reconciliation_findings" ADD COLUMN     "acknowledged_at" TIMESTAMPTZ(3),
ADD COLUMN     "acknowledged_by" TEXT,
ADD COLUMN     "note" TEXT,
ADD COLUMN     "resolved_at" TIMESTAMPTZ(3),
ADD COLUMN     "resolved_by" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'open',
ADD COLUMN     "subject" TEXT;

-- Edited by hand: the findings recorded so far get their subject (a withdrawal's, or their own id when
-- they had none: the nonce_ahead findings of before), then it is required.
UPDATE "reconciliation_findings" SET "subject" = CASE WHEN "withdrawal_id" IS NULL THEN 'finding:' || "id" ELSE 'withdrawal:' || "withdrawal_id" END;
ALTER TABLE "reconciliation_findings" ALTER COLUMN "subject" SET NOT NULL;
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_status_valid" CHECK ("status" IN ('open', 'acknowledged', 'resolved'));
ALTER TABLE "hot_wallets" ADD CONSTRAINT "hot_wallets_stopped_by_fkey" FOREIGN KEY ("stopped_by") REFERENCES "reconciliation_findings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "reconciliation_findings_status_idx" ON "reconciliation_findings"("status");

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_findings_network_kind_subject_key" ON "reconciliation_findings"("network", "kind", "subject");
