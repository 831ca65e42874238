import { Balance } from '../accounts/account.repository';

/**
 * The money rule of a withdrawal, stated once, here: accepting it holds amount + fee, moved from the user's
 * available balance to held, and only if the available balance covers all of it.
 *
 * Production runs these functions on both paths: `holdMove` gives the deltas that CREATE_HELD
 * (withdrawal.repository.ts) and APPLY_HOLD (account.repository.ts) add to the account row and record in
 * its ledger line, as parameters (the SQL adds what it is given, it does not work the hold out); `hold`
 * decides, on the account row a user under limits locked (create-withdrawal.use-case.ts), whether the move
 * is covered. On the one-statement path no row is read before the UPDATE (one round trip): there the
 * coverage is the database's invariant `accounts_available_non_negative` (CHECK available_micros >= 0),
 * which refuses a move that `hold` would refuse, and the repository answers its violation 'insufficient'.
 * The repository's integration spec holds the two paths to this rule's outcomes at the boundary.
 */
export type HoldOutcome = { held: Balance; move: HoldMove } | 'insufficient' | 'not_found';

/** What a hold does to an account, as deltas: what its UPDATE adds to each balance and its ledger line records. */
export interface HoldMove {
  availableDelta: bigint;
  heldDelta: bigint;
}

/** The move of accepting a withdrawal of `amountMicros` plus `feeMicros`: all of it, from available to held. */
export function holdMove(amountMicros: bigint, feeMicros: bigint): HoldMove {
  const total = amountMicros + feeMicros;
  return { availableDelta: -total, heldDelta: total };
}

/** What accepting a withdrawal of `amountMicros` plus `feeMicros` does to `account` (null: no such user). */
export function hold(account: Balance | null, amountMicros: bigint, feeMicros: bigint): HoldOutcome {
  if (account === null) return 'not_found';
  const move = holdMove(amountMicros, feeMicros);
  const held = { availableMicros: account.availableMicros + move.availableDelta, heldMicros: account.heldMicros + move.heldDelta };
  // Covered: nothing goes below zero (the accounts' CHECK constraints state the same invariant).
  if (held.availableMicros < 0n || held.heldMicros < 0n) return 'insufficient';
  return { held, move };
}
