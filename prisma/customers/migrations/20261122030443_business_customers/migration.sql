-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "cnpj" CHAR(14) NOT NULL,
    "legal_name" TEXT NOT NULL,
    "external_id" TEXT,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "owner_notifications" (
    "id" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "owner_index" INTEGER NOT NULL,
    "channel" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "owner_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customers_partner_id_external_id_idx" ON "customers"("partner_id", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "customers_partner_id_cnpj_key" ON "customers"("partner_id", "cnpj");

-- CreateIndex
CREATE INDEX "owner_notifications_status_created_at_idx" ON "owner_notifications"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "owner_notifications_customer_id_owner_index_channel_key" ON "owner_notifications"("customer_id", "owner_index", "channel");

-- AddForeignKey
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Not expressible in schema.prisma: the only channels and states there are.
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_channel_check" CHECK ("channel" IN ('sms', 'email'));
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_status_check" CHECK ("status" IN ('pending', 'sent'));
