-- A MED devolução moves its cents once, and a failed one puts them back once: at most one med_return and one
-- med_return_reversal line per devolução (refund_id), as for a partner's refund. By hand: a partial index, which
-- Prisma cannot express. med_block and med_release stay outside it (a case may block, and release, more than once).
CREATE UNIQUE INDEX "brl_ledger_entries_med_return_once" ON "brl_ledger_entries"("end_to_end_id", "type", "refund_id")
  WHERE "type" IN ('med_return', 'med_return_reversal');
