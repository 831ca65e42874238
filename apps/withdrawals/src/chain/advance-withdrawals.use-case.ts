import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { WithdrawalRepository } from '../withdrawals/withdrawal.repository';

/** Withdrawals moved per transaction: one statement moves them all, and their events go out together. */
const BATCH = 500;

/**
 * The simulated chain: broadcasts `created` withdrawals (`sent`, with a transaction hash) and confirms
 * `sent` ones (`settled`, capturing the hold; or `failed` for the configured failing destinations,
 * releasing it). Each batch of moves is one transaction with their events and ledger entries; rows are
 * claimed with SKIP LOCKED and moved only from the state they were due in, so any number of instances
 * may run and a move is never made twice.
 */
@Injectable()
export class AdvanceWithdrawalsUseCase {
  private readonly logger = new Logger(AdvanceWithdrawalsUseCase.name);

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly withdrawals: WithdrawalRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** Makes every move that is due at `now`; returns how many withdrawals moved. */
  async execute(now = new Date()): Promise<number> {
    let moved = 0;
    for (;;) {
      const sent = await this.send(now);
      const confirmed = await this.confirm(now);
      moved += sent + confirmed;
      if (sent < BATCH && confirmed < BATCH) return moved;
    }
  }

  private send(now: Date): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const sent = await this.withdrawals.sendDue(tx, new Date(now.getTime() - this.config.CHAIN_SEND_DELAY_MS), BATCH, new Date());
      for (const w of sent) tx.emit(stateChanged(w));
      return sent.length;
    });
  }

  private confirm(now: Date): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const before = new Date(now.getTime() - this.config.CHAIN_SETTLE_DELAY_MS);
      const confirmed = await this.withdrawals.confirmDue(tx, before, BATCH, this.config.CHAIN_FAIL_ADDRESSES, new Date());
      await this.accounts.endHolds(
        tx,
        confirmed.map((w) => ({
          partnerId: w.partnerId,
          document: w.document,
          withdrawalId: w.id,
          micros: w.amountMicros + w.feeMicros,
          released: w.state === 'failed',
        })),
        new Date(),
      );
      for (const w of confirmed) {
        tx.emit(stateChanged(w));
        if (w.state === 'failed') this.logger.log(`Withdrawal ${w.id} failed on chain; hold released`);
      }
      return confirmed.length;
    });
  }
}
