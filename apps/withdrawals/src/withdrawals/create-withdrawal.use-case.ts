import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CreateWithdrawalCommand, CreateWithdrawalResult, fail, ok, Reply } from '@partner/contracts';
import { UnitOfWork } from '@partner/kafka';
import { normalEvmAddress } from '@partner/validation';
import { feeFor } from './fee-schedule';
import { stateChanged } from './withdrawal-event';
import { Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/**
 * What identifies "the same request" for an idempotency key: every field of the body but the key, each in
 * its normal form, so two spellings of one request are one request. The only field with several spellings
 * is the address (its letter case is just the EIP-55 checksum, checked at validation): it counts in lower
 * case. Migration `withdrawal_fingerprint_lowercase_address` recomputed the rows written before this rule
 * with the same text, so keep the two in step.
 */
export function fingerprintOf(c: CreateWithdrawalCommand): string {
  const canonical = JSON.stringify([c.document, normalEvmAddress(c.address), c.usdtmicros, c.fee_choice, c.network]);
  return createHash('sha256').update(canonical).digest('hex');
}

class Rejected extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Thrown to roll back a transaction whose key another request already claimed; answered as a replay. */
class Duplicate extends Error {}

/**
 * Creates a USDT withdrawal: in one transaction of one statement (WithdrawalRepository.createHeld),
 * claims the idempotency key by inserting the withdrawal first (so a concurrent duplicate waits on the
 * unique index and then replays instead of competing for the balance), holds amount + network fee, and
 * emits the `created` event, which the unit of work writes to the outbox before COMMIT.
 * Failed attempts bind nothing: after a 404/422 the same key may be retried once the cause is fixed.
 */
@Injectable()
export class CreateWithdrawalUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly withdrawals: WithdrawalRepository,
  ) {}

  async execute(command: CreateWithdrawalCommand): Promise<Reply<CreateWithdrawalResult>> {
    const fingerprint = fingerprintOf(command);
    const feeMicros = feeFor(command.network, command.fee_choice);
    const amountMicros = BigInt(command.usdtmicros);
    try {
      const withdrawal = await this.unitOfWork.run(async (tx) => {
        const outcome = await this.withdrawals.createHeld(
          tx,
          {
            partnerId: command.partner_id,
            document: command.document,
            idempotencyKey: command.idempotency_key,
            fingerprint,
            address: command.address,
            network: command.network,
            feeChoice: command.fee_choice,
            amountMicros,
            feeMicros,
          },
          new Date(),
        );
        if (outcome === 'duplicate') throw new Duplicate();
        if (outcome === 'not_found') throw new Rejected('user_not_found', `no user with document ${command.document}`);
        if (outcome === 'insufficient') {
          throw new Rejected('insufficient_funds', `balance does not cover ${amountMicros} micros plus a ${feeMicros} micros fee`);
        }
        tx.emit(stateChanged(outcome.created));
        return outcome.created;
      });
      return ok({ id: withdrawal.id, created: true });
    } catch (error) {
      if (error instanceof Rejected) return fail(error.code, error.message);
      if (error instanceof Duplicate) {
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
