-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "block_hash" TEXT,
ADD COLUMN     "block_number" BIGINT,
ADD COLUMN     "effective_gas_price_wei" DECIMAL(78,0),
ADD COLUMN     "from_address" TEXT,
ADD COLUMN     "gas_cost_wei" DECIMAL(78,0),
ADD COLUMN     "gas_used" DECIMAL(78,0),
ADD COLUMN     "nonce" BIGINT,
ADD COLUMN     "reconciled_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "hot_wallets" (
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "genesis_hash" TEXT NOT NULL,
    "next_nonce" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hot_wallets_pkey" PRIMARY KEY ("network","address")
);

-- CreateTable
CREATE TABLE "payout_transactions" (
    "id" BIGSERIAL NOT NULL,
    "withdrawal_id" INTEGER NOT NULL,
    "network" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "nonce" BIGINT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "raw_tx" TEXT NOT NULL,
    "max_fee_per_gas_wei" DECIMAL(78,0) NOT NULL,
    "max_priority_fee_wei" DECIMAL(78,0) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "broadcast_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reconciliation_findings" (
    "id" BIGSERIAL NOT NULL,
    "network" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "withdrawal_id" INTEGER,
    "detail" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reconciliation_findings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payout_transactions_withdrawal_id_idx" ON "payout_transactions"("withdrawal_id");

-- CreateIndex
CREATE UNIQUE INDEX "payout_transactions_network_tx_hash_key" ON "payout_transactions"("network", "tx_hash");

-- CreateIndex
CREATE INDEX "reconciliation_findings_created_at_idx" ON "reconciliation_findings"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_findings_network_kind_withdrawal_id_key" ON "reconciliation_findings"("network", "kind", "withdrawal_id");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_one_per_nonce" ON "withdrawals"("network", "from_address", "nonce");

-- Added by hand: every version of a payout belongs to a withdrawal that exists.
ALTER TABLE "payout_transactions" ADD CONSTRAINT "payout_transactions_withdrawal_id_fkey" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- The payout rounds' work list: open withdrawals of one network, oldest first (a partial index, small whatever the history).
CREATE INDEX "withdrawals_open_payouts_idx" ON "withdrawals"("network", "id") WHERE "state" IN ('created', 'sent');
ALTER TABLE "hot_wallets" ADD CONSTRAINT "hot_wallets_next_nonce_valid" CHECK ("next_nonce" >= 0);
