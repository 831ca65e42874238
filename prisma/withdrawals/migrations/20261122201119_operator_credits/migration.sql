-- The operator API's credits (withdrawals.command.credit-account.v2): one row per idempotency key of a
-- partner, and the credit's reference kept on its ledger entry.

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "reference" TEXT;

-- CreateTable
CREATE TABLE "credits" (
    "partner_id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "document" CHAR(11) NOT NULL,
    "amount_micros" BIGINT NOT NULL,
    "reference" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credits_pkey" PRIMARY KEY ("partner_id","idempotency_key")
);

-- Added by hand (Prisma cannot express CHECK constraints): a credit is never zero or negative, and a
-- balance always fits a JSON safe integer (2^53 - 1 micros), since replies carry micros as numbers.
ALTER TABLE "credits" ADD CONSTRAINT "credits_amount_positive" CHECK ("amount_micros" > 0);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_safe_integer" CHECK ("available_micros" + "held_micros" <= 9007199254740991);
