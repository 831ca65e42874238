/**
 * Where a withdrawal's payout stands: one explicit state (withdrawals.payout_state), moved only along
 * PAYOUT_TRANSITIONS. Every statement that moves it names the states it moves from (`from`), so a move the
 * table does not allow changes no row, whatever runs twice or races.
 *
 * - `queued`: to be signed, in its turn.
 * - `aside`: no wallet of the pool can pay it now (payout_reason: `exceeds_float`, `fee_cap`); the others
 *   go on, and it is signed as soon as a wallet can.
 * - `signed`: it holds a nonce of one wallet and a signed transaction, not yet accepted by a node.
 * - `broadcast`: a node accepted a version (the withdrawal is `sent`).
 * - `mined`: a version's receipt is recorded, its block not final yet.
 * - `cancelling`: the operator cancels its nonce: a 0-value self-transfer at that nonce is signed.
 *   If the cancel is mined, the nonce is given up and the withdrawal is `queued` again (a new nonce);
 *   if its transfer is mined instead, it settles as usual (the two share the nonce: never both).
 * - `finished`: settled or failed.
 */
export const PAYOUT_STATES = ['queued', 'aside', 'signed', 'broadcast', 'mined', 'cancelling', 'finished'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const PAYOUT_TRANSITIONS: Record<PayoutState, readonly PayoutState[]> = {
  queued: ['aside', 'signed', 'finished'],
  aside: ['queued', 'signed', 'finished'],
  signed: ['broadcast', 'mined', 'cancelling', 'finished'],
  broadcast: ['mined', 'cancelling', 'finished'],
  mined: ['broadcast', 'finished'],
  cancelling: ['queued', 'mined', 'finished'],
  finished: [],
};

/** The states a payout may move to `to` from (what a statement's WHERE names). */
export function from(to: PayoutState): PayoutState[] {
  return PAYOUT_STATES.filter((s) => PAYOUT_TRANSITIONS[s].includes(to));
}

/** States holding a nonce whose transaction is not final: what a round follows. */
export const HOLDS_NONCE: readonly PayoutState[] = ['signed', 'broadcast', 'mined', 'cancelling'];
/** States waiting for a nonce. */
export const UNSIGNED: readonly PayoutState[] = ['queued', 'aside'];
