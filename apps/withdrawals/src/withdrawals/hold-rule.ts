import { Balance } from '../accounts/account.repository';

/**
 * The money rule of a withdrawal, stated once: accepting it holds amount + fee, moved from the user's
 * available balance to held, and only if the available balance covers all of it. A user under limits is
 * held by this function on the locked account row (create-withdrawal.use-case.ts); CREATE_HELD
 * (withdrawal.repository.ts) applies the same rule inside its one statement, for speed, to everyone else;
 * the repository's integration spec holds the two to the same outcomes.
 */
export type HoldOutcome = { held: Balance } | 'insufficient' | 'not_found';

/** What accepting a withdrawal of `amountMicros` plus `feeMicros` does to `account` (null: no such user). */
export function hold(account: Balance | null, amountMicros: bigint, feeMicros: bigint): HoldOutcome {
  if (account === null) return 'not_found';
  const total = amountMicros + feeMicros;
  if (account.availableMicros < total) return 'insufficient';
  return { held: { availableMicros: account.availableMicros - total, heldMicros: account.heldMicros + total } };
}
