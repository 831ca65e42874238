import { Transaction } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { pixInStateChanged } from '../pix-inflows/pix-in-event';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { MedCaseRecord, MedCaseRepository } from './med-case.repository';
import { releasedStatus } from './med-case-rules';

/**
 * Ending a case's block, shared by the operator's decision (DecideMedCaseUseCase) and its opener's cancellation
 * (CancelMedCaseUseCase), under the end-to-end id's advisory lock and the case's row lock they take first.
 */

/** Gives `cents` of the case's block back to the available balance (med_release). */
export async function releaseBlock(
  tx: Transaction,
  accounts: AccountRepository,
  found: MedCaseRecord,
  cents: bigint,
  now: Date,
): Promise<void> {
  if (cents === 0n || !found.user) return;
  await accounts.medRelease(tx, found.user.partnerId, found.user.document, {
    endToEndId: found.endToEndId,
    caseId: found.caseId,
    amountCents: cents,
    at: now,
  });
}

/** The inflow back to the status its returns made it (with its pix_in event), once no case of the payment holds cents blocked. */
export async function unblockInflow(
  tx: Transaction,
  inflows: PixInflowRepository,
  cases: MedCaseRepository,
  closed: MedCaseRecord,
  now: Date,
): Promise<void> {
  if (!closed.user) return;
  const inflow = await inflows.lockForPartner(tx, closed.user.partnerId, closed.endToEndId);
  if (inflow?.status !== 'blocked' || (await cases.lockBlockingOf(tx, closed.endToEndId)).length > 0) return;
  const status = releasedStatus(inflow.amountCents, inflow.returnedCents);
  tx.emit(pixInStateChanged(await inflows.move(tx, inflow.partnerId, inflow.id, status, now)));
}
