import { PixInNotifiedStatus, PixInStatus } from '@partner/contracts';

/**
 * Spec 2.4's moves: the statuses each notified status may move to. denied, failed and credited are final. `success` is
 * a settled Pix (the money is at the operator): it only goes on to `credited`; taking settled money back is a
 * return (devolução, a refund), never a notified status.
 */
export const PIX_IN_TRANSITIONS: Readonly<Record<PixInNotifiedStatus, readonly PixInNotifiedStatus[]>> = {
  processing: ['approved', 'denied', 'failed'],
  approved: ['success', 'failed'],
  success: ['credited'],
  denied: [],
  failed: [],
  credited: [],
};

/** The statuses only this service sets, all after `credited`. */
const AFTER_CREDIT: readonly PixInStatus[] = ['blocked', 'partially_returned', 'returned'];

/** How far along the settlement a status is that is not final. */
const STEP: Partial<Record<PixInNotifiedStatus, number>> = { processing: 0, approved: 1, success: 2 };

/**
 * What a notification of `to` does to an inflow at `from`: `move` along the table; `keep` for the
 * same status again or, while the inflow is still settling, an earlier one (a late or repeated
 * delivery: nothing changes); `refuse` otherwise (out of a final status, or a skipped step). An inflow its
 * refunds returned (partly or wholly), or that a MED case blocks, was credited: to the provider's notifications
 * it is `credited`.
 */
export function transitionOf(from: PixInStatus, to: PixInNotifiedStatus): 'move' | 'keep' | 'refuse' {
  const settled: PixInNotifiedStatus = AFTER_CREDIT.includes(from) ? 'credited' : (from as PixInNotifiedStatus);
  if (settled === to) return 'keep';
  if (PIX_IN_TRANSITIONS[settled].includes(to)) return 'move';
  const fromStep = STEP[settled];
  const toStep = STEP[to];
  return fromStep !== undefined && toStep !== undefined && toStep < fromStep ? 'keep' : 'refuse';
}
