import { Injectable, Logger } from '@nestjs/common';
import { fail, FindingStepCommand, ok, RequestReply, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { PayoutRepository } from '../payouts/payout.repository';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { toFindingView } from './finding-view';
import { Finding, ReconciliationRepository } from './reconciliation.repository';

/**
 * An operator's step on a finding: acknowledge (open → acknowledged: someone is on it) or resolve (open or
 * acknowledged → resolved), with who and a note. Resolving acts in the same transaction where the finding
 * holds something back: a nonce_ahead lifts its wallet's stop (the chain's count of the wallet's
 * transactions becomes its next nonce), a nonce_taken fails its withdrawal and releases the hold (its
 * nonce was mined by another transaction: it can never be paid as signed).
 */
@Injectable()
export class StepFindingUseCase {
  private readonly logger = new Logger('reconciliation');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly findings: ReconciliationRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly payouts: PayoutRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(c: FindingStepCommand, now = new Date()): Promise<RequestReply<typeof Topics.WithdrawalsFindingStep>> {
    return this.unitOfWork.run(async (tx) => {
      const found = await this.findings.lock(tx, c.finding_id);
      if (!found) return fail('not_found', `no finding ${c.finding_id}`);
      if (found.status === 'resolved' || (c.step === 'acknowledge' && found.status !== 'open'))
        return fail('invalid_transition', `finding ${found.id} is ${found.status}: it cannot be ${c.step}d`);
      if (c.step === 'acknowledge') return ok(toFindingView(await this.findings.acknowledge(tx, found.id, c.by, c.note, now)));
      await this.resolveEffects(tx, found, now);
      const resolved = await this.findings.resolve(tx, found.id, c.by, c.note, now);
      this.logger.log(`finding ${found.id} (${found.kind} on ${found.network}) resolved by ${c.by}: ${c.note}`);
      return ok(toFindingView(resolved));
    });
  }

  private async resolveEffects(tx: Transaction, f: Finding, now: Date): Promise<void> {
    if (f.kind === 'nonce_ahead' || f.kind === 'reverts_in_a_row') {
      // The subject ends with the chain's count of the wallet's transactions when it was found.
      await this.hotWallets.lift(tx, f.id, BigInt(f.subject.slice(f.subject.lastIndexOf(':') + 1)), now);
    } else if (f.kind === 'nonce_taken' && f.withdrawalId !== null) {
      const failed = await this.payouts.giveUp(tx, f.withdrawalId, 'nonce_taken', now);
      if (!failed) return; // already final: nothing is held any more
      await this.accounts.endHolds(
        tx,
        [
          {
            partnerId: failed.partnerId,
            document: failed.document,
            withdrawalId: failed.id,
            micros: failed.amountMicros + failed.feeMicros,
            released: true,
          },
        ],
        now,
      );
      tx.emit(stateChanged(failed));
    }
  }
}
