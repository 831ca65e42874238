-- Accounts for users, and the real DICT (docs/adr/0025-dict-directory-and-user-accounts.md).
--
-- users: the holder's name and the payment account, nullable. Users registered before this migration have
-- neither until the operator registers them again (POST /admin/v1/partners/{id}/users with the name: an
-- idempotent upsert, answered 200, that fills them); a key asked for meanwhile fails with
-- holder_name_missing (or account_missing). Nothing is reset.
--
-- pix_keys: the holder and account copied at the key's request (what DICT is sent, the same on every retry),
-- the DICT queue (attempts, next attempt, last error), DICT's RequestId (a fresh UUID for every existing
-- row: a volatile default gives each its own) and the reconciliation's marks. Keys already `registered`
-- were registered by the simulator, never in a real DICT: the reconciliation reports each once as
-- entry_missing (docs/operations.md, "DICT"); keys `deleting` get DICT's NotFound, which ends them `canceled`.

-- AlterTable
ALTER TABLE "pix_keys" ADD COLUMN     "account_branch" VARCHAR(4),
ADD COLUMN     "account_ispb" CHAR(8),
ADD COLUMN     "account_number" VARCHAR(20),
ADD COLUMN     "account_opened_at" TIMESTAMPTZ(3),
ADD COLUMN     "account_type" VARCHAR(4),
ADD COLUMN     "dict_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "dict_checked_at" TIMESTAMPTZ(3),
ADD COLUMN     "dict_last_error" TEXT,
ADD COLUMN     "dict_mismatch" TEXT,
ADD COLUMN     "dict_next_attempt_at" TIMESTAMPTZ(3),
ADD COLUMN     "dict_request_id" UUID NOT NULL DEFAULT gen_random_uuid(),
ADD COLUMN     "holder_name" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "account_branch" VARCHAR(4),
ADD COLUMN     "account_ispb" CHAR(8),
ADD COLUMN     "account_number" VARCHAR(20),
ADD COLUMN     "account_opened_at" TIMESTAMPTZ(3),
ADD COLUMN     "account_type" VARCHAR(4),
ADD COLUMN     "name" TEXT;

-- CreateIndex
CREATE INDEX "pix_keys_dict_queue_idx" ON "pix_keys"("state", "dict_next_attempt_at");

-- CreateIndex
CREATE INDEX "pix_keys_dict_checked_idx" ON "pix_keys"("state", "dict_checked_at");
