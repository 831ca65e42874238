-- CreateTable
CREATE TABLE "idempotency_records" (
    "partner_id" UUID NOT NULL,
    "idempotency_key" VARCHAR(255) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "customer_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("partner_id","idempotency_key")
);
