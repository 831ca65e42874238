-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "last_used_at" TIMESTAMPTZ(3);

-- AlterTable, edited by hand (Prisma's diff drops and re-adds the column): the rate limit's buckets are
-- keyed by text now, `<partner id>` or `operator:<operator key id>`; existing buckets are kept.
ALTER TABLE "rate_limit_buckets" RENAME COLUMN "partner_id" TO "bucket_id";
ALTER TABLE "rate_limit_buckets" ALTER COLUMN "bucket_id" TYPE TEXT USING "bucket_id"::text;

-- The same function over a text bucket id (hand-written, like the first one: Prisma does not model functions).
DROP FUNCTION "take_rate_limit_token"(UUID, DOUBLE PRECISION, DOUBLE PRECISION);
CREATE FUNCTION "take_rate_limit_token"(p_bucket_id TEXT, p_burst DOUBLE PRECISION, p_per_second DOUBLE PRECISION)
RETURNS TABLE ("allowed" BOOLEAN, "tokens" DOUBLE PRECISION)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  held DOUBLE PRECISION;
  since TIMESTAMPTZ;
  now_ TIMESTAMPTZ;
  refilled DOUBLE PRECISION;
BEGIN
  INSERT INTO "rate_limit_buckets" ("bucket_id", "tokens", "updated_at") VALUES (p_bucket_id, p_burst, clock_timestamp())
  ON CONFLICT ("bucket_id") DO NOTHING;
  SELECT b."tokens", b."updated_at" INTO held, since FROM "rate_limit_buckets" b WHERE b."bucket_id" = p_bucket_id FOR UPDATE;
  now_ := GREATEST(since, clock_timestamp());
  refilled := LEAST(p_burst, held + EXTRACT(EPOCH FROM now_ - since) * p_per_second);
  allowed := refilled >= 1;
  tokens := CASE WHEN allowed THEN refilled - 1 ELSE refilled END;
  UPDATE "rate_limit_buckets" SET "tokens" = take_rate_limit_token.tokens, "updated_at" = now_ WHERE "bucket_id" = p_bucket_id;
  RETURN NEXT;
END;
$$;

-- CreateTable
CREATE TABLE "operator_keys" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "operator_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "operator_key_id" UUID,
    "operator_key_prefix" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "partner_id" TEXT,
    "key_id" TEXT,
    "document" TEXT,
    "status_code" INTEGER NOT NULL,
    "request_id" TEXT NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "request_id" TEXT,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_keys_hash_key" ON "operator_keys"("hash");

-- CreateIndex
CREATE INDEX "audit_log_partner_id_id_idx" ON "audit_log"("partner_id", "id");

-- CreateIndex
CREATE INDEX "outbox_messages_published_at_id_idx" ON "outbox_messages"("published_at", "id");

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- The audit log is append-only: whoever connects (the gateway, a script, an operator's psql) cannot
-- change or remove an entry. Only a superuser dropping the triggers could.
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();

-- The outbox as in the services (see withdrawals' outbox_unpublished_index): the relay reads the
-- unpublished rows in id order through a partial index, and the queue table is vacuumed early.
CREATE INDEX IF NOT EXISTS "outbox_messages_unpublished_id_idx" ON "outbox_messages"("id") WHERE "published_at" IS NULL;
ALTER TABLE "outbox_messages" SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
