-- Per-partner, gap-free feed sequence. Existing rows are numbered per partner in their global
-- insertion order (seq), and each partner's counter starts after its last number.

-- DropIndex
DROP INDEX "feed_events_partner_id_seq_idx";

-- AlterTable: nullable first, so existing rows can be backfilled before NOT NULL.
ALTER TABLE "feed_events" ADD COLUMN     "sequence" BIGINT;

UPDATE "feed_events" AS f
SET "sequence" = numbered.n
FROM (SELECT "id", ROW_NUMBER() OVER (PARTITION BY "partner_id" ORDER BY "seq") AS n FROM "feed_events") AS numbered
WHERE f."id" = numbered."id";

ALTER TABLE "feed_events" ALTER COLUMN "sequence" SET NOT NULL;

-- CreateTable
CREATE TABLE "partner_sequences" (
    "partner_id" UUID NOT NULL,
    "last_sequence" BIGINT NOT NULL,

    CONSTRAINT "partner_sequences_pkey" PRIMARY KEY ("partner_id")
);

INSERT INTO "partner_sequences" ("partner_id", "last_sequence")
SELECT "partner_id", MAX("sequence") FROM "feed_events" GROUP BY "partner_id";

-- CreateIndex
CREATE INDEX "feed_events_partner_id_type_sequence_idx" ON "feed_events"("partner_id", "type", "sequence");

-- CreateIndex
CREATE INDEX "feed_events_delivered_at_idx" ON "feed_events"("delivered_at");

-- CreateIndex
CREATE UNIQUE INDEX "feed_events_partner_id_sequence_key" ON "feed_events"("partner_id", "sequence");
