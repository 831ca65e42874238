-- Dual control (docs/operations/security.md, "Dual control"): an operator credit above
-- CREDIT_APPROVAL_THRESHOLD_USDT_MICROS waits here until a second operator key approves or rejects it.

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "usdt_micros" BIGINT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending_approval',
    "requested_by_key_id" UUID NOT NULL,
    "requested_by" TEXT NOT NULL,
    "requested_from" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_by_key_id" UUID,
    "decided_by" TEXT,
    "decided_from" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "note" TEXT,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "approvals_partner_id_idempotency_key_key" ON "approvals"("partner_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "approvals_status_requested_at_idx" ON "approvals"("status", "requested_at");

-- Not expressible in schema.prisma: what each state carries, and that a second key decides.
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_kind_check" CHECK ("kind" = 'usdt_credit');
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_usdt_micros_check" CHECK ("usdt_micros" > 0);
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_status_check" CHECK (
  ("status" = 'pending_approval' AND "decided_by_key_id" IS NULL AND "decided_at" IS NULL)
  OR ("status" IN ('approved', 'rejected') AND "decided_by_key_id" IS NOT NULL AND "decided_by" IS NOT NULL AND "decided_at" IS NOT NULL)
);
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_second_key_check" CHECK ("decided_by_key_id" IS DISTINCT FROM "requested_by_key_id");

-- A request is decided once and never removed: the row is the record of who asked and who decided.
CREATE FUNCTION "approvals_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."status" = 'pending_approval' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'approval % is decided or kept for good: % refused', OLD."id", TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "approvals_decided_once" BEFORE UPDATE OR DELETE ON "approvals" FOR EACH ROW EXECUTE FUNCTION "approvals_refuse_change"();

-- The audit log: the amount a call moved and the address it came from.
ALTER TABLE "audit_log" ADD COLUMN "usdt_micros" BIGINT, ADD COLUMN "client_address" TEXT;
