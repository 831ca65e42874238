-- The service's dead letters (ADR 0015): pix-keys consumes an event now (inflows' MedCaseChanged), and a service with
-- event handlers parks the unprocessable ones here. (The diff's DROP INDEX of outbox_messages_unpublished_id_idx, a
-- partial index the schema engine cannot see, is left out by hand.)

-- CreateTable
CREATE TABLE "dead_letters" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "kafka_offset" BIGINT NOT NULL,
    "key" TEXT,
    "headers" JSONB NOT NULL,
    "value" TEXT,
    "reason" TEXT NOT NULL,
    "parked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replay_requested_at" TIMESTAMPTZ(3),
    "replayed_at" TIMESTAMPTZ(3),
    "replay_attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "dead_letters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dead_letters_topic_partition_kafka_offset_key" ON "dead_letters"("topic", "partition", "kafka_offset");
