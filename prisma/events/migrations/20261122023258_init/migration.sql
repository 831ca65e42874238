-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "events";

-- CreateTable
CREATE TABLE "feed_events" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "partner_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "feed_events_seq_key" ON "feed_events"("seq");

-- CreateIndex
CREATE INDEX "feed_events_partner_id_seq_idx" ON "feed_events"("partner_id", "seq");
