-- CreateTable
CREATE TABLE "users" (
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("partner_id","document")
);

-- CreateTable
CREATE TABLE "pix_key_replica" (
    "partner_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "document" CHAR(11) NOT NULL,
    "state" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pix_key_replica_pkey" PRIMARY KEY ("partner_id","key_id")
);

-- CreateTable
CREATE TABLE "spi_payments" (
    "end_to_end_id" CHAR(32) NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "method" TEXT NOT NULL,
    "description" TEXT,
    "sender_name" TEXT NOT NULL,
    "sender_tax_id" TEXT NOT NULL,
    "sender_account_number" TEXT NOT NULL,
    "sender_account_type" TEXT NOT NULL,
    "sender_bank_code" CHAR(8) NOT NULL,
    "sender_branch_code" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "spi_payments_pkey" PRIMARY KEY ("end_to_end_id")
);

-- CreateTable
CREATE TABLE "pix_inflows" (
    "id" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "end_to_end_id" CHAR(32) NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "description" TEXT,
    "method" TEXT NOT NULL,
    "sender_name" TEXT NOT NULL,
    "sender_tax_id" TEXT NOT NULL,
    "sender_account_number" TEXT NOT NULL,
    "sender_account_type" TEXT NOT NULL,
    "sender_bank_code" CHAR(8) NOT NULL,
    "sender_branch_code" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pix_inflows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pix_key_replica_partner_id_document_state_idx" ON "pix_key_replica"("partner_id", "document", "state");

-- CreateIndex
CREATE INDEX "spi_payments_partner_id_document_idx" ON "spi_payments"("partner_id", "document");

-- CreateIndex
CREATE UNIQUE INDEX "pix_inflows_end_to_end_id_key" ON "pix_inflows"("end_to_end_id");

-- CreateIndex
CREATE INDEX "pix_inflows_partner_id_id_idx" ON "pix_inflows"("partner_id", "id");

-- CreateIndex
CREATE INDEX "pix_inflows_partner_id_status_id_idx" ON "pix_inflows"("partner_id", "status", "id");

-- CreateIndex
CREATE INDEX "pix_inflows_status_updated_at_idx" ON "pix_inflows"("status", "updated_at");

-- Added by hand (Prisma cannot express CHECK constraints): amounts are positive cents and every value
-- comes from the spec 2.4 sets, whatever the code does.
ALTER TABLE "spi_payments" ADD CONSTRAINT "spi_payments_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_status_known" CHECK ("status" IN ('processing', 'approved', 'denied', 'success', 'credited', 'failed'));
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_method_known" CHECK ("method" IN ('manual', 'dict', 'static_qr_code', 'dynamic_qr_code', 'payer_qr_code', 'initiator'));
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_account_type_known" CHECK ("sender_account_type" IN ('checking', 'savings', 'payment', 'salary'));
ALTER TABLE "pix_inflows" ADD CONSTRAINT "pix_inflows_outcome_known" CHECK ("outcome" IN ('credited', 'denied', 'failed'));
ALTER TABLE "pix_key_replica" ADD CONSTRAINT "pix_key_replica_state_known" CHECK ("state" IN ('pending', 'registered', 'failed', 'deleting', 'canceled'));
