import { MedCaseChangedEvent } from '@partner/contracts';

/** The inflows service's MedCaseChanged for a case: open and undecided, unless `patch` says otherwise. */
export const medCaseChanged = (
  c: Pick<MedCaseChangedEvent, 'case_id' | 'kind' | 'end_to_end_id'>,
  patch: Partial<MedCaseChangedEvent> = {},
): MedCaseChangedEvent => ({
  ...c,
  status: 'open',
  blocked_cents: 1000,
  returned_cents: 0,
  dict_result: null,
  rejection_reason: null,
  analysis_details: null,
  refund_transaction_id: null,
  changed_at: new Date().toISOString(),
  ...patch,
});
