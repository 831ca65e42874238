import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  Beneficiary,
  CreateWithdrawalCommand,
  CreateWithdrawalResult,
  RequestErrorCode,
  requestRefusalsOf,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { normalEvmAddress } from '@partner/validation';
import { Rejected, requestFingerprint, runIdempotent, Superseded, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { limitPassed } from '../limits/limit-rule';
import { hasLimits, Limits, LimitsRepository } from '../limits/limits.repository';
import { hold } from './hold-rule';
import { WithdrawalApprovalRepository } from '../approvals/withdrawal-approval.repository';
import { destinationRefusal } from '../destinations/destination-rule';
import { DestinationsRepository } from '../destinations/destinations.repository';
import { feeFor } from './fee-schedule';
import { stateChanged } from './withdrawal-event';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { ADDRESS_SCREENING, AddressScreening } from '../screening/address-screening';
import { CreateOutcome, NewWithdrawal, Withdrawal, WithdrawalRepository } from './withdrawal.repository';

/**
 * What identifies "the same request" for an idempotency key: every field of the body but the key, each in
 * its normal form, so two spellings of one request are one request. The only field with several spellings
 * is the address (its letter case is just the EIP-55 checksum, checked at validation): it counts in lower
 * case. Migration `withdrawal_fingerprint_lowercase_address` recomputed the rows written before this rule
 * with the same text, so keep the two in step.
 */
export function fingerprintOf(c: CreateWithdrawalCommand): string {
  const fields: unknown[] = [c.document, normalEvmAddress(c.address), c.usdtmicros, c.fee_choice, c.network];
  // The beneficiary counts only when given, so a request without one keeps the fingerprint it always had.
  if (c.beneficiary) fields.push(beneficiaryFields(c.beneficiary));
  return requestFingerprint(fields);
}

/** A beneficiary's fields in one order, whatever order the request gave them in. */
const beneficiaryFields = (b: Beneficiary) => [b.wallet, b.vasp_name ?? null, b.name, b.document ?? null, b.first_party];

/**
 * Creates a USDT withdrawal in one statement, its own transaction (WithdrawalRepository.createHeld): claims
 * the idempotency key by inserting the withdrawal first (so a concurrent duplicate waits on the unique
 * index and then replays instead of competing for the balance), holds amount + network fee, and writes the
 * `created` event to the outbox; the unit of work then wakes the relay. Failed attempts bind nothing: the
 * statement aborts, so after a 404/422 the same key may be retried once the cause is fixed.
 *
 * The destination is screened first (ADDRESS_SCREENING, moment `request`): a listed one is refused
 * (`address_blocked`, naming the list), nothing created, unless the key already holds a withdrawal, which is
 * replayed as usual (it was accepted before the listing; its payout round screens it again and fails it).
 *
 * A user under limits (docs/operations/limits.md) is created another way, in one transaction of a few
 * statements: the user's account row is locked first (and the partner's limits row, for a partner-wide total),
 * so that the use of the windows, read after the locks, sees every withdrawal committed before: concurrent
 * requests never pass a limit together, as they never overdraw the balance. Then the key, the limits
 * (`limit_exceeded`), the hold rule (hold-rule.ts) on the locked row, the insert, the hold and its event.
 * A withdrawal above the partner's approval threshold is inserted `pending_approval` with its approval
 * (docs/operations/approvals.md): held, reported, not paid until an operator approves it.
 */
@Injectable()
export class CreateWithdrawalUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(WithdrawalRepository)
    private readonly withdrawals: Pick<WithdrawalRepository, 'createHeld' | 'findByIdempotencyKey' | 'insertCreated' | 'refusedBefore'>,
    @Inject(RefusedCommandRepository) private readonly refusedCommands: Pick<RefusedCommandRepository, 'memoryOf'>,
    @Inject(ADDRESS_SCREENING) private readonly screening: AddressScreening,
    @Inject(LimitsRepository) private readonly limits: Pick<LimitsRepository, 'effective' | 'usage' | 'lockPartner'>,
    @Inject(AccountRepository) private readonly accounts: Pick<AccountRepository, 'lock' | 'applyHold'>,
    @Inject(WithdrawalApprovalRepository) private readonly approvals: Pick<WithdrawalApprovalRepository, 'request'>,
    @Inject(DestinationsRepository) private readonly destinations: Pick<DestinationsRepository, 'forWithdrawal'>,
  ) {}

  /** `commandId`: the command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  execute(command: CreateWithdrawalCommand, commandId?: string): Promise<RequestReply<typeof Topics.WithdrawalsCreate>> {
    const fingerprint = fingerprintOf(command);
    const feeMicros = feeFor(command.network, command.fee_choice);
    const amountMicros = BigInt(command.usdtmicros);
    const memory = this.refusedCommands.memoryOf(command.partner_id, commandId, command.idempotency_key);
    return runIdempotent<CreateWithdrawalResult, Withdrawal, RequestErrorCode<typeof Topics.WithdrawalsCreate>>({
      refusalCodes: requestRefusalsOf(Topics.WithdrawalsCreate),
      idempotencyKey: command.idempotency_key,
      fingerprint,
      attempt: async () => {
        const address = normalEvmAddress(command.address);
        const [hits, { policy, saved }] = await Promise.all([
          this.screening.screen(command.network, [command.address], 'request'),
          this.destinations.forWithdrawal(command.partner_id, command.document, address),
        ]);
        const hit = hits.get(address);
        const refusal = hit
          ? { code: 'address_blocked' as const, message: hit.message, field: 'address' }
          : destinationRefusal(policy, saved, command.beneficiary, command.address, new Date());
        if (refusal) {
          // A retry of a withdrawal accepted before is answered as such, whatever the lists or the policy say now.
          if (await this.withdrawals.findByIdempotencyKey(command.partner_id, command.idempotency_key)) return { taken: null };
          throw new Rejected(refusal.code, refusal.message, refusal.field);
        }
        const data: NewWithdrawal = {
          partnerId: command.partner_id,
          document: command.document,
          idempotencyKey: command.idempotency_key,
          fingerprint,
          address: command.address,
          network: command.network,
          feeChoice: command.fee_choice,
          amountMicros,
          feeMicros,
          beneficiary: command.beneficiary ?? saved?.beneficiary ?? null,
        };
        const keptCommandId = memory ? (commandId ?? null) : null;
        const limits = await this.limits.effective(command.partner_id, command.document);
        const outcome = hasLimits(limits)
          ? await this.createWithinLimits(data, limits, new Date(), keptCommandId)
          : await this.withdrawals.createHeld(this.unitOfWork, data, new Date(), stateChanged, keptCommandId);
        if (typeof outcome === 'object') return { done: { id: outcome.created.id, created: true } };
        if (outcome === 'refused_before') {
          // The statement found this command's kept refusal: answer it again. Gone meanwhile (pruned after a
          // day): nothing binds the command any more, so it is attempted afresh.
          const earlier = await memory?.recall();
          if (!earlier) throw new Superseded();
          throw new Rejected(earlier.code, earlier.message, earlier.field);
        }
        // The statement aborted: nothing of it committed, the key included.
        if (outcome === 'not_found') throw new Rejected('user_not_found', `no user with document ${command.document}`);
        if (outcome === 'insufficient')
          throw new Rejected('insufficient_funds', `balance does not cover ${amountMicros} micros plus a ${feeMicros} micros fee`);
        // The key's withdrawal committed; the statement does not return it.
        return { taken: null };
      },
      find: () => this.withdrawals.findByIdempotencyKey(command.partner_id, command.idempotency_key),
      fingerprintOf: (previous) => previous.fingerprint,
      replay: (previous) => ({ id: previous.id, created: false }),
      // The statement itself checks for this command's refusal (CREATE_HELD), so runIdempotent need not
      // query for it before every attempt; it still keeps a new refusal.
      refusals: memory && { recall: async () => null, keep: (refusal) => memory.keep(refusal) },
    });
  }

  /** The creation of a user under limits (see the class's comment); `limit_exceeded` is thrown, rolling it all back. */
  private createWithinLimits(data: NewWithdrawal, limits: Limits, now: Date, commandId: string | null): Promise<CreateOutcome> {
    const { partnerId, document, amountMicros, feeMicros } = data;
    return this.unitOfWork.run(async (tx) => {
      const account = await this.accounts.lock(tx, partnerId, document);
      if (commandId !== null && (await this.withdrawals.refusedBefore(tx, partnerId, commandId))) return 'refused_before';
      if (await this.withdrawals.findByIdempotencyKey(partnerId, data.idempotencyKey, tx)) return 'duplicate';
      if (!account) return 'not_found';
      if (limits.partnerDaily !== null) await this.limits.lockPartner(tx, partnerId);
      const usage = await this.limits.usage(partnerId, document, now, { tx, partnerWide: limits.partnerDaily !== null });
      const passed = limitPassed(limits, usage, amountMicros);
      if (passed) throw new Rejected('limit_exceeded', passed.message);
      const held = hold(account, amountMicros, feeMicros);
      if (typeof held === 'string') return held;
      // Above the partner's approval threshold it waits for an operator, its amount held all the same.
      const waits = limits.approvalThreshold !== null && amountMicros > limits.approvalThreshold;
      const created = await this.withdrawals.insertCreated(tx, data, now, waits ? 'pending_approval' : 'created');
      if (!created) return 'duplicate';
      await this.accounts.applyHold(tx, partnerId, document, held.move, created.id, now);
      if (waits) await this.approvals.request(tx, { id: randomUUID(), withdrawalId: created.id, partnerId, at: now });
      tx.emit(stateChanged(created));
      return { created };
    });
  }
}
