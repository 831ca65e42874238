import { PixInStatus } from '@partner/contracts';

/**
 * Spec 2.4's moves: the statuses each status may move to. denied, failed and credited are final. `success` is a
 * settled Pix (the money is at the operator): it only goes on to `credited`; taking settled money back is a
 * return (devolução), never a status.
 */
export const PIX_IN_TRANSITIONS: Readonly<Record<PixInStatus, readonly PixInStatus[]>> = {
  processing: ['approved', 'denied', 'failed'],
  approved: ['success', 'failed'],
  success: ['credited'],
  denied: [],
  failed: [],
  credited: [],
};

/** How far along the settlement a status is that is not final. */
const STEP: Partial<Record<PixInStatus, number>> = { processing: 0, approved: 1, success: 2 };

/**
 * What a notification of `to` does to an inflow at `from`: `move` along the table; `keep` for the
 * same status again or, while the inflow is still settling, an earlier one (a late or repeated
 * delivery: nothing changes); `refuse` otherwise (out of a final status, or a skipped step).
 */
export function transitionOf(from: PixInStatus, to: PixInStatus): 'move' | 'keep' | 'refuse' {
  if (from === to) return 'keep';
  if (PIX_IN_TRANSITIONS[from].includes(to)) return 'move';
  const fromStep = STEP[from];
  const toStep = STEP[to];
  return fromStep !== undefined && toStep !== undefined && toStep < fromStep ? 'keep' : 'refuse';
}
