-- MED cases DICT holds against payments this operator received (docs/operations/pix-and-dict.md, "MED"). (The diff's
-- DROP INDEX of outbox_messages_unpublished_id_idx, a partial index the schema engine cannot see, is left out by hand.)

-- CreateTable
CREATE TABLE "dict_med_cases" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "end_to_end_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'received',
    "acknowledged_at" TIMESTAMPTZ(3),
    "dict_result" TEXT,
    "analysis_details" TEXT,
    "rejection_reason" TEXT,
    "refund_transaction_id" TEXT,
    "dict_last_modified" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "dict_med_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dict_med_polls" (
    "kind" TEXT NOT NULL,
    "modified_after" TIMESTAMPTZ(3),
    "next_poll_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dict_med_polls_pkey" PRIMARY KEY ("kind")
);

-- CreateIndex
CREATE INDEX "dict_med_cases_close_queue_idx" ON "dict_med_cases"("status", "next_attempt_at");

-- Added by hand (Prisma cannot express CHECK constraints): only known values, and a close that says what DICT needs.
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_kind_known" CHECK ("kind" IN ('infraction_report', 'refund_request'));
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_status_known" CHECK ("status" IN ('received', 'closing', 'closed', 'failed'));
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_result_known"
  CHECK ("dict_result" IS NULL AND "status" = 'received'
         OR "kind" = 'infraction_report' AND "dict_result" IN ('AGREED', 'DISAGREED')
            AND "rejection_reason" IS NULL AND "refund_transaction_id" IS NULL
         OR "kind" = 'refund_request' AND "dict_result" IN ('TOTALLY_ACCEPTED', 'PARTIALLY_ACCEPTED')
            AND "refund_transaction_id" IS NOT NULL AND "rejection_reason" IS NULL
         OR "kind" = 'refund_request' AND "dict_result" = 'REJECTED'
            AND "rejection_reason" IN ('NO_BALANCE', 'ACCOUNT_CLOSURE', 'CANNOT_REFUND', 'OTHER') AND "refund_transaction_id" IS NULL);
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_acknowledged_kind" CHECK ("acknowledged_at" IS NULL OR "kind" = 'infraction_report');
ALTER TABLE "dict_med_polls" ADD CONSTRAINT "dict_med_polls_kind_known" CHECK ("kind" IN ('infraction_report', 'refund_request'));
INSERT INTO "dict_med_polls" ("kind") VALUES ('infraction_report'), ('refund_request');
