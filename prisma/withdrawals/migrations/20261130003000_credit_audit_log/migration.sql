-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "action" TEXT NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "usdt_micros" BIGINT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "operators" TEXT,
    "client_address" TEXT,
    "available_micros_after" BIGINT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_partner_id_document_id_idx" ON "audit_log"("partner_id", "document", "id");

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- Append-only, as the gateway's audit log: whoever connects cannot change or remove an entry (and
-- scripts/db/migrate.ts withholds UPDATE, DELETE and TRUNCATE from the service's role).
CREATE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
