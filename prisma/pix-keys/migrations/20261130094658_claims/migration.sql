-- DICT claims of the partners' keys, this operator the donor (docs/api.md, "Claims";
-- docs/operations/pix-and-dict.md, "Claims"). (The diff's DROP INDEX of outbox_messages_unpublished_id_idx,
-- a partial index the schema engine cannot see, is left out by hand.)

-- CreateTable
CREATE TABLE "claims" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "pix_key_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "resolution_period_end" TIMESTAMPTZ(3) NOT NULL,
    "completion_period_end" TIMESTAMPTZ(3),
    "dict_last_modified" TIMESTAMPTZ(3) NOT NULL,
    "claimer_participant" CHAR(8) NOT NULL,
    "confirm_reason" TEXT,
    "cancel_reason" TEXT,
    "cancelled_by" TEXT,
    "dict_action" TEXT,
    "dict_action_reason" TEXT,
    "decided_by" TEXT,
    "dict_attempts" INTEGER NOT NULL DEFAULT 0,
    "dict_next_attempt_at" TIMESTAMPTZ(3),
    "dict_last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dict_claim_polls" (
    "role" TEXT NOT NULL,
    "modified_after" TIMESTAMPTZ(3),
    "next_poll_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dict_claim_polls_pkey" PRIMARY KEY ("role")
);

-- CreateIndex
CREATE INDEX "pix_keys_key_state_idx" ON "pix_keys"("key", "state");

-- CreateIndex
CREATE INDEX "claims_dict_queue_idx" ON "claims"("dict_action", "dict_next_attempt_at");

-- CreateIndex
CREATE INDEX "claims_resolution_idx" ON "claims"("status", "resolution_period_end");

-- CreateIndex
CREATE INDEX "claims_partner_id_pix_key_id_idx" ON "claims"("partner_id", "pix_key_id");

-- AddForeignKey
ALTER TABLE "claims" ADD CONSTRAINT "claims_pix_key_id_fkey" FOREIGN KEY ("pix_key_id") REFERENCES "pix_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Added by hand (Prisma cannot express CHECK constraints): only known values, whatever the code does.
ALTER TABLE "claims" ADD CONSTRAINT "claims_role_known" CHECK ("role" IN ('donor'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_type_known" CHECK ("type" IN ('portability', 'ownership'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_status_known"
  CHECK ("status" IN ('open', 'waiting_resolution', 'confirmed', 'cancelled', 'completed'));
ALTER TABLE "claims" ADD CONSTRAINT "claims_dict_action_known"
  CHECK ("dict_action" IN ('acknowledge', 'confirm', 'cancel') AND ("dict_action" = 'acknowledge') = ("dict_action_reason" IS NULL)
         OR "dict_action" IS NULL);
ALTER TABLE "claims" ADD CONSTRAINT "claims_decided_by_known" CHECK ("decided_by" IN ('partner', 'default'));
INSERT INTO "dict_claim_polls" ("role") VALUES ('donor');
