-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN     "beneficiary" JSONB;

-- CreateTable
CREATE TABLE "withdrawal_policies" (
    "partner_id" UUID NOT NULL,
    "beneficiary_required" BOOLEAN NOT NULL DEFAULT false,
    "address_book_only" BOOLEAN NOT NULL DEFAULT false,
    "address_cooldown_seconds" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "withdrawal_policies_pkey" PRIMARY KEY ("partner_id")
);

-- CreateTable
CREATE TABLE "saved_addresses" (
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "address" TEXT NOT NULL,
    "label" TEXT,
    "beneficiary" JSONB NOT NULL,
    "proof" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "saved_addresses_pkey" PRIMARY KEY ("partner_id","document","address")
);

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

ALTER TABLE "saved_addresses" ADD CONSTRAINT "saved_addresses_address_check" CHECK ("address" ~ '^0x[0-9a-f]{40}$');
ALTER TABLE "withdrawal_policies" ADD CONSTRAINT "withdrawal_policies_cooldown" CHECK ("address_cooldown_seconds" BETWEEN 0 AND 2592000);
