-- The sandbox Pix-in takes an idempotency key (docs/api.md: "Sandbox"): the payment it sent is kept with the key
-- and the request's fingerprint, one payment per partner and key (several without a key: NULLs never conflict).
-- AlterTable
ALTER TABLE "spi_payments" ADD COLUMN     "fingerprint" TEXT,
ADD COLUMN     "idempotency_key" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "spi_payments_partner_id_idempotency_key_key" ON "spi_payments"("partner_id", "idempotency_key");
