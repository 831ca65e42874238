-- CreateTable
CREATE TABLE "users" (
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("partner_id","document")
);

-- CreateTable
CREATE TABLE "pix_keys" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "key" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "failure_reason" TEXT,
    "deletion_requested_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pix_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "partner_id" UUID NOT NULL,
    "idempotency_key" UUID NOT NULL,
    "operation" TEXT NOT NULL,
    "document" CHAR(11) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "answer" TEXT,
    "pix_key_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("partner_id","idempotency_key")
);

-- CreateIndex
CREATE INDEX "pix_keys_partner_id_document_created_at_idx" ON "pix_keys"("partner_id", "document", "created_at");

-- CreateIndex
CREATE INDEX "pix_keys_state_updated_at_idx" ON "pix_keys"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "pix_keys_one_active_per_user" ON "pix_keys"("partner_id", "document") WHERE (state = ANY (ARRAY['pending'::text, 'registered'::text, 'deleting'::text]));

-- AddForeignKey
ALTER TABLE "pix_keys" ADD CONSTRAINT "pix_keys_partner_id_document_fkey" FOREIGN KEY ("partner_id", "document") REFERENCES "users"("partner_id", "document") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Added by hand (Prisma cannot express CHECK constraints): whatever the code does, a key is always in a
-- known state, a CPF key is its owner's CPF, and an idempotency record holds a known operation and answer.
ALTER TABLE "pix_keys" ADD CONSTRAINT "pix_keys_state_known" CHECK ("state" IN ('pending', 'registered', 'failed', 'deleting', 'canceled'));
ALTER TABLE "pix_keys" ADD CONSTRAINT "pix_keys_key_is_document" CHECK ("key" = "document");
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_operation_known" CHECK ("operation" IN ('create', 'delete'));
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_answer_known" CHECK ("answer" IN ('accepted', 'already_sent', 'succeeded'));
