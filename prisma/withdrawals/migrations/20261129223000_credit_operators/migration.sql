-- Who credited: the operator key that asked and, for a credit above the approval threshold, the one that
-- approved it (dual control, docs/operations/security.md), on the credit and its ledger line.
ALTER TABLE "credits" ADD COLUMN "operators" TEXT;
ALTER TABLE "ledger_entries" ADD COLUMN "operators" TEXT;
