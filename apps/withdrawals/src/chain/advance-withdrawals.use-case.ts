import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { PrismaService, TX_OPTIONS } from '../prisma/prisma.service';
import { stateChanged } from '../withdrawals/withdrawal-event';
import { WithdrawalRepository } from '../withdrawals/withdrawal.repository';

const BATCH = 200;
/** Moves made at once: each is its own short transaction, so a few overlap well within the pool of 10. */
const PARALLEL_MOVES = 4;

/** Runs `move` over `items`, `limit` at a time; returns the sum of what the moves return. */
async function inParallel<T>(items: T[], limit: number, move: (item: T) => Promise<number>): Promise<number> {
  let next = 0;
  let total = 0;
  const worker = async () => {
    while (next < items.length) total += await move(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return total;
}

/**
 * The simulated chain: broadcasts `created` withdrawals (`sent`, with a transaction hash) and confirms
 * `sent` ones (`settled`, capturing the hold; or `failed` for the configured failing destinations,
 * releasing it). Each move is one transaction with its event; a move another instance already made is
 * skipped, so any number of instances may run.
 */
@Injectable()
export class AdvanceWithdrawalsUseCase {
  private readonly logger = new Logger(AdvanceWithdrawalsUseCase.name);

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly prisma: PrismaService,
    private readonly withdrawals: WithdrawalRepository,
    private readonly accounts: AccountRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /** Makes every move that is due at `now`; returns how many withdrawals moved. */
  async execute(now = new Date()): Promise<number> {
    let moved = 0;
    const toSend = await this.withdrawals.findDueAcrossPartners('created', new Date(now.getTime() - this.config.CHAIN_SEND_DELAY_MS), BATCH);
    moved += await inParallel(toSend, PARALLEL_MOVES, ({ id, partnerId }) => this.send(partnerId, id));
    const toConfirm = await this.withdrawals.findDueAcrossPartners('sent', new Date(now.getTime() - this.config.CHAIN_SETTLE_DELAY_MS), BATCH);
    moved += await inParallel(toConfirm, PARALLEL_MOVES, ({ id, partnerId, address }) => this.confirm(partnerId, id, address));
    if (moved > 0) this.relay.wake();
    return moved;
  }

  private async send(partnerId: string, id: number): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const txHash = `0x${randomBytes(32).toString('hex')}`;
      const w = await this.withdrawals.transition(tx, partnerId, id, 'created', 'sent', { txHash });
      if (!w) return 0;
      await this.outbox.add(tx, stateChanged(w));
      return 1;
    }, TX_OPTIONS);
  }

  private async confirm(partnerId: string, id: number, address: string): Promise<number> {
    const fails = this.config.CHAIN_FAIL_ADDRESSES.includes(address.toLowerCase());
    return this.prisma.$transaction(async (tx) => {
      const w = fails
        ? await this.withdrawals.transition(tx, partnerId, id, 'sent', 'failed', { failureReason: 'transfer_reverted' })
        : await this.withdrawals.transition(tx, partnerId, id, 'sent', 'settled');
      if (!w) return 0;
      const held = w.amountMicros + w.feeMicros;
      if (fails) await this.accounts.release(tx, partnerId, w.document, held, w.id);
      else await this.accounts.capture(tx, partnerId, w.document, held, w.id);
      await this.outbox.add(tx, stateChanged(w));
      if (fails) this.logger.log(`Withdrawal ${w.id} failed on chain; hold released`);
      return 1;
    }, TX_OPTIONS);
  }
}
