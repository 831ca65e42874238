-- A pool of hot wallets (one nonce lane each) and one explicit payout state per withdrawal
-- (docs/adr/0031-payout-lanes-and-states.md).

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "payout_state" TEXT NOT NULL DEFAULT 'queued',
ADD COLUMN     "payout_reason" TEXT,
ADD COLUMN     "payout_waiting_since" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "payout_transactions" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'transfer';

-- AlterTable
ALTER TABLE "hot_wallets" ADD COLUMN     "waiting_reason" TEXT,
ADD COLUMN     "waiting_since" TIMESTAMPTZ(3),
ADD COLUMN     "reverts_in_a_row" INTEGER NOT NULL DEFAULT 0;

-- Edited by hand: the payout state the null columns implied until now, then the states allowed.
UPDATE "withdrawals" w SET "payout_state" = CASE
  WHEN w."state" NOT IN ('created', 'sent') THEN 'finished'
  WHEN w."nonce" IS NULL THEN 'queued'
  WHEN w."block_number" IS NOT NULL THEN 'mined'
  WHEN EXISTS (SELECT 1 FROM "payout_transactions" p WHERE p."withdrawal_id" = w."id" AND p."accepted_at" IS NOT NULL) THEN 'broadcast'
  ELSE 'signed' END;
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_payout_state_valid"
  CHECK ("payout_state" IN ('queued', 'aside', 'signed', 'broadcast', 'mined', 'cancelling', 'finished'));
ALTER TABLE "payout_transactions" ADD CONSTRAINT "payout_transactions_kind_valid" CHECK ("kind" IN ('transfer', 'cancel'));

-- CreateIndex
CREATE INDEX "withdrawals_payout_unsigned_idx" ON "withdrawals"("network", "payout_state", "id");
