-- The operator's ledger (GET /admin/v1/partners/{partner_id}/users/{document}/ledger) names each credit by
-- its idempotency key. New credits write it with their ledger entry; existing ones get it from the credit
-- written in the same statement (same partner, user, amount, reference and time), where exactly one matches.

-- AlterTable
ALTER TABLE "ledger_entries" ADD COLUMN     "idempotency_key" TEXT;

UPDATE "ledger_entries" e SET "idempotency_key" = c."idempotency_key"
FROM "credits" c
WHERE e."reason" = 'credit' AND c."partner_id" = e."partner_id" AND c."document" = e."document"
  AND c."amount_micros" = e."available_delta" AND c."reference" = e."reference" AND c."created_at" = e."created_at"
  AND (SELECT count(*) FROM "credits" d WHERE d."partner_id" = e."partner_id" AND d."document" = e."document"
       AND d."amount_micros" = e."available_delta" AND d."reference" = e."reference" AND d."created_at" = e."created_at") = 1;
