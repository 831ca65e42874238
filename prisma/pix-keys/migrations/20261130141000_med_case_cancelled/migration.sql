-- MED cases their opener cancelled in DICT (docs/operations/pix-and-dict.md, "MED"): a status `cancelled`, owing DICT
-- nothing, with or without a decision recorded before (a report may be cancelled even after it was closed). By hand:
-- the schema is unchanged, only the CHECK constraints (which Prisma cannot express).
ALTER TABLE "dict_med_cases" DROP CONSTRAINT "dict_med_cases_status_known";
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_status_known"
  CHECK ("status" IN ('received', 'closing', 'closed', 'failed', 'cancelled'));
ALTER TABLE "dict_med_cases" DROP CONSTRAINT "dict_med_cases_result_known";
ALTER TABLE "dict_med_cases" ADD CONSTRAINT "dict_med_cases_result_known"
  CHECK ("dict_result" IS NULL AND "status" IN ('received', 'cancelled')
         OR "kind" = 'infraction_report' AND "dict_result" IN ('AGREED', 'DISAGREED')
            AND "rejection_reason" IS NULL AND "refund_transaction_id" IS NULL
         OR "kind" = 'refund_request' AND "dict_result" IN ('TOTALLY_ACCEPTED', 'PARTIALLY_ACCEPTED')
            AND "refund_transaction_id" IS NOT NULL AND "rejection_reason" IS NULL
         OR "kind" = 'refund_request' AND "dict_result" = 'REJECTED'
            AND "rejection_reason" IN ('NO_BALANCE', 'ACCOUNT_CLOSURE', 'CANNOT_REFUND', 'OTHER') AND "refund_transaction_id" IS NULL);
