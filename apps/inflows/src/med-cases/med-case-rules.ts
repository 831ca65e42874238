import { MedCaseKind, MedDecision, MedDictResult, PixInStatus } from '@partner/contracts';

/** The inflow statuses whose amount is in the user's balance (or held there by a MED case): what a case can block. */
export const BLOCKABLE: readonly PixInStatus[] = ['credited', 'partially_returned', 'blocked'];

/** The decisions of each kind: a report is agreed or disagreed, a refund request accepted or rejected. */
export const DECISIONS_OF: Readonly<Record<MedCaseKind, readonly MedDecision[]>> = {
  infraction_report: ['agree', 'disagree'],
  refund_request: ['accept', 'reject'],
};

/** Another case of the same payment holding cents blocked. */
export interface Holder {
  caseId: string;
  kind: MedCaseKind;
  blockedCents: bigint;
}

/** What a new case blocks: the cents it takes over from the payment's infraction reports (releasing their excess), and what it blocks anew. */
export interface BlockPlan {
  askedCents: bigint;
  takeOver: { caseId: string; takenCents: bigint; releasedCents: bigint }[];
  topUpCents: bigint;
  blockedCents: bigint;
}

const min = (...values: bigint[]): bigint => values.reduce((a, b) => (b < a ? b : a));

/**
 * The block of a new case on a credited inflow. `reachCents`: the inflow's amount not yet refunded. A report
 * asks all of it; a request its amount, capped the same way. A request takes over what the payment's
 * infraction reports block (up to its ask; a report's excess is released, no double block); then it, like a
 * report, blocks anew what it still lacks, never past what the other cases do not already hold of the inflow,
 * nor past the user's available balance (MED blocks what is there).
 */
export function planBlock(c: {
  kind: MedCaseKind;
  requestedCents: bigint | null;
  reachCents: bigint;
  others: readonly Holder[];
  availableCents: bigint;
}): BlockPlan {
  const askedCents = c.kind === 'infraction_report' || c.requestedCents === null ? c.reachCents : min(c.requestedCents, c.reachCents);
  let takenCents = 0n;
  let releasedCents = 0n;
  const takeOver: BlockPlan['takeOver'] = [];
  if (c.kind === 'refund_request')
    for (const other of c.others.filter((o) => o.kind === 'infraction_report')) {
      const take = min(other.blockedCents, askedCents - takenCents);
      takeOver.push({ caseId: other.caseId, takenCents: take, releasedCents: other.blockedCents - take });
      takenCents += take;
      releasedCents += other.blockedCents - take;
    }
  const heldByOthers = c.others.reduce((sum, o) => sum + o.blockedCents, 0n) - takenCents - releasedCents;
  const room = c.reachCents - heldByOthers - takenCents;
  const topUpCents = [askedCents - takenCents, room, c.availableCents + releasedCents].some((v) => v <= 0n)
    ? 0n
    : min(askedCents - takenCents, room, c.availableCents + releasedCents);
  return { askedCents, takeOver, topUpCents, blockedCents: takenCents + topUpCents };
}

/** What DICT is told of an accepted refund request once its devolução settled: all it asked, or part of it. */
export const acceptedResult = (returnedCents: bigint, askedCents: bigint): MedDictResult =>
  returnedCents >= askedCents ? 'TOTALLY_ACCEPTED' : 'PARTIALLY_ACCEPTED';

/** An inflow's status once no case blocks it: what its returns made it (none: credited, all of it: returned). */
export const releasedStatus = (amountCents: bigint, returnedCents: bigint): PixInStatus =>
  returnedCents === 0n ? 'credited' : returnedCents >= amountCents ? 'returned' : 'partially_returned';

/** Whose devolução settled: a partner's refund (POST .../refunds), or the one a MED case's acceptance made. */
export type ReturnOf = 'partner_refund' | 'med_case';

/**
 * The status an inflow takes once a devolução of `refundCents` of it settled (the inflow read under its row
 * lock, in the transaction that counts it; its returnedCents not yet counting that one): the status its returns
 * make it with that one counted (releasedStatus). Except a partner's refund of a `blocked` inflow (asked before a
 * MED case blocked it, settled meanwhile): it stays blocked, its status set by releasedStatus when the case
 * releases it. A MED case's devolução ends the block it was taken from.
 */
export const statusAfterReturn = (
  inflow: { status: PixInStatus; amountCents: bigint; returnedCents: bigint },
  refundCents: bigint,
  of: ReturnOf,
): PixInStatus =>
  of === 'partner_refund' && inflow.status === 'blocked'
    ? 'blocked'
    : releasedStatus(inflow.amountCents, inflow.returnedCents + refundCents);
