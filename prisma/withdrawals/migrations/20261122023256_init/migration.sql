-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "withdrawals";

-- CreateTable
CREATE TABLE "accounts" (
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "available_micros" BIGINT NOT NULL,
    "held_micros" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("partner_id","document")
);

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" SERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "idempotency_key" UUID NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "address" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "fee_choice" TEXT NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "fee_micros" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "tx_hash" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "reason" TEXT NOT NULL,
    "available_delta" BIGINT NOT NULL,
    "held_delta" BIGINT NOT NULL,
    "withdrawal_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "withdrawals_state_updated_at_idx" ON "withdrawals"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_partner_id_idempotency_key_key" ON "withdrawals"("partner_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_entries_partner_id_document_idx" ON "ledger_entries"("partner_id", "document");

-- CreateIndex
CREATE INDEX "outbox_messages_published_at_id_idx" ON "outbox_messages"("published_at", "id");

-- Added by hand (Prisma cannot express CHECK constraints): whatever the code does, money never goes
-- negative and a withdrawal is always in a known state.
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_available_non_negative" CHECK ("available_micros" >= 0);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_held_non_negative" CHECK ("held_micros" >= 0);
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_amounts_valid" CHECK ("amount_micros" > 0 AND "fee_micros" >= 0);
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_state_known" CHECK ("state" IN ('created', 'sent', 'settled', 'failed'));
