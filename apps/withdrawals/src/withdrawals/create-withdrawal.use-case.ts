import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CreateWithdrawalCommand, CreateWithdrawalResult, fail, ok, Reply } from '@partner/contracts';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { AccountRepository } from '../accounts/account.repository';
import { PrismaService, TX_OPTIONS } from '../prisma/prisma.service';
import { feeFor } from './fee-schedule';
import { stateChanged } from './withdrawal-event';
import { DuplicateIdempotencyKeyError, Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/** What identifies "the same request" for an idempotency key: every field of the body but the key. */
export function fingerprintOf(c: CreateWithdrawalCommand): string {
  const canonical = JSON.stringify([c.document, c.address, c.usdtmicros, c.fee_choice, c.network]);
  return createHash('sha256').update(canonical).digest('hex');
}

class Rejected extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * Creates a USDT withdrawal: in one transaction, claims the idempotency key (by inserting the
 * withdrawal first, so a concurrent duplicate waits on the unique index and then replays instead of
 * competing for the balance), holds amount + network fee, and writes the `created` event.
 * Failed attempts bind nothing: after a 404/422 the same key may be retried once the cause is fixed.
 */
@Injectable()
export class CreateWithdrawalUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly withdrawals: WithdrawalRepository,
    private readonly accounts: AccountRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(command: CreateWithdrawalCommand): Promise<Reply<CreateWithdrawalResult>> {
    const fingerprint = fingerprintOf(command);
    const previous = await this.withdrawals.findByIdempotencyKey(command.partner_id, command.idempotency_key);
    if (previous) return this.replay(previous, fingerprint);

    const feeMicros = feeFor(command.network, command.fee_choice);
    const amountMicros = BigInt(command.usdtmicros);
    try {
      const withdrawal = await this.prisma.$transaction(async (tx) => {
        const created = await this.withdrawals.create(tx, {
          partnerId: command.partner_id,
          document: command.document,
          idempotencyKey: command.idempotency_key,
          fingerprint,
          address: command.address,
          network: command.network,
          feeChoice: command.fee_choice,
          amountMicros,
          feeMicros,
        });
        const hold = await this.accounts.hold(tx, command.partner_id, command.document, amountMicros + feeMicros, created.id);
        if (hold === 'not_found') throw new Rejected('user_not_found', `no user with document ${command.document}`);
        if (hold === 'insufficient') {
          throw new Rejected('insufficient_funds', `balance does not cover ${amountMicros} micros plus a ${feeMicros} micros fee`);
        }
        await this.outbox.add(tx, stateChanged(created));
        return created;
      }, TX_OPTIONS);
      this.relay.wake();
      return ok({ id: withdrawal.id, created: true });
    } catch (error) {
      if (error instanceof Rejected) return fail(error.code, error.message);
      if (error instanceof DuplicateIdempotencyKeyError) {
        const winner = await this.withdrawals.findByIdempotencyKey(command.partner_id, command.idempotency_key);
        if (winner) return this.replay(winner, fingerprint);
      }
      throw error;
    }
  }

  private replay(previous: Withdrawal, fingerprint: string): Reply<CreateWithdrawalResult> {
    if (previous.fingerprint !== fingerprint) {
      return fail('idempotency_key_reused', 'idempotency_key was already used with a different request', 'idempotency_key');
    }
    return ok({ id: previous.id, created: false });
  }
}
