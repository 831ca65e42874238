import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { fail, ok, PixInStatus, RefundPixInCommand, RequestReply, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { InflowsConfig } from '../config/inflows.config';
import { PixInflowRecord, PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { pixInRefundStateChanged } from './pix-in-refund-event';
import { PixInRefundRecord, PixInRefundRepository } from './pix-in-refund.repository';

type Reply = RequestReply<typeof Topics.InflowsRefund>;

/**
 * The window of a devolução: "90 dias desde a data de liquidação original do pix" (vendor/bacen-pix-api,
 * PixDevolucaoInvalida; docs/adr/0035-refunds-of-pix-inflows.md). Counted from when the inflow was first
 * notified, which is no later than its settlement: the window here closes at most a few seconds early, never late.
 */
export const REFUND_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

/** The statuses whose amount reached the user's balance: what a refund can return (not `blocked`: a MED case holds it). */
const REFUNDABLE: readonly PixInStatus[] = ['credited', 'partially_returned'];

/** The devolução's id at the provider (DevolucaoId, [a-zA-Z0-9]{1,35}): ours, random, so no two refunds ever share one. */
export const newProviderId = (): string => `R${randomBytes(16).toString('hex')}`;

/**
 * inflows.command.refund-pix-in.v1 (POST /partner/v1/pix-in/{end_to_end_id}/refunds): returns part or all of a
 * credited inflow to its payer. In one transaction: the refund recorded at `created`, its cents set aside on the
 * inflow (never past its amount: its refunds not failed, together), the user's BRL balance debited with its
 * ledger line, and the `created` event; SendPixInRefundsUseCase then asks the provider. The refunds of one
 * inflow, and the requests of one idempotency key, apply one after the other (advisory locks, the key's
 * first), so 16 concurrent refunds of an inflow cannot together pass its amount, nor a key make two.
 */
@Injectable()
export class RefundPixInUseCase {
  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
    private readonly refunds: PixInRefundRepository,
    private readonly accounts: AccountRepository,
  ) {}

  execute(c: RefundPixInCommand): Promise<Reply> {
    if (!this.config.PIX_API_URL)
      return Promise.resolve(fail('not_implemented', 'refunds are not enabled on this deployment: it has no Pix API (PIX_API_URL)'));
    return this.unitOfWork.run(async (tx) => {
      const now = new Date();
      await this.refunds.lockIdempotencyKey(tx, c.partner_id, c.idempotency_key);
      await this.inflows.lockEndToEndId(tx, c.end_to_end_id);
      const prior = await this.refunds.findByIdempotencyKey(tx, c.partner_id, c.idempotency_key);
      if (prior) return replayOf(prior, c);
      const inflow = await this.inflows.lockForPartner(tx, c.partner_id, c.end_to_end_id);
      if (!inflow) return fail('not_found', `no pix inflow ${c.end_to_end_id}`, 'end_to_end_id');
      const refusal = await this.refusalOf(tx, inflow, c, now);
      if (refusal) return refusal;
      const amountCents = BigInt(c.amount_cents);
      // Both checked by refusalOf under the locks: a CHECK failing here would be a bug of ours, so it rolls everything back.
      await this.inflows.reserveRefund(tx, inflow, amountCents);
      const refund = await this.refunds.create(tx, c.partner_id, {
        document: inflow.document,
        endToEndId: inflow.endToEndId,
        idempotencyKey: c.idempotency_key,
        amountCents,
        reason: c.reason,
        providerId: newProviderId(),
        now,
      });
      const movement = { endToEndId: inflow.endToEndId, refundId: refund.id, amountCents, at: now };
      if (!(await this.accounts.debitRefund(tx, c.partner_id, inflow.document, movement)))
        throw new Error(`refund ${refund.id}: the user's account locked for the check is gone`);
      tx.emit(pixInRefundStateChanged(refund));
      return ok({ id: Number(refund.id), status: refund.status, created: true });
    });
  }

  /** Why the refund cannot be made, in the order a partner would fix them; null when it can. Locks the user's account. */
  private async refusalOf(tx: Transaction, inflow: PixInflowRecord, c: RefundPixInCommand, now: Date): Promise<Reply | null> {
    if (!REFUNDABLE.includes(inflow.status))
      return fail('pix_in_not_refundable', `pix inflow ${inflow.endToEndId} is ${inflow.status}: only a credited inflow can be refunded`);
    if (now.getTime() - inflow.createdAt.getTime() > REFUND_WINDOW_MS)
      return fail(
        'refund_window_closed',
        `pix inflow ${inflow.endToEndId} was received at ${inflow.createdAt.toISOString()}: refunds close 90 days after`,
      );
    const left = inflow.amountCents - inflow.refundedCents;
    if (BigInt(c.amount_cents) > left)
      return fail(
        'refund_exceeds_amount',
        `refunding ${c.amount_cents} cents would exceed the inflow: ${inflow.amountCents} received, ${inflow.refundedCents} refunded, ${left} left`,
        'amount_cents',
      );
    const account = await this.accounts.lock(tx, inflow.partnerId, inflow.document);
    const available = account?.availableBrlCents ?? 0n;
    if (available < BigInt(c.amount_cents))
      return fail(
        'insufficient_funds',
        `the user's available balance (${available} cents) does not cover ${c.amount_cents} cents`,
        'amount_cents',
      );
    return null;
  }
}

/** A request repeating an idempotency key: the first refund if it is the same request, else a refusal. */
function replayOf(prior: PixInRefundRecord, c: RefundPixInCommand): Reply {
  const same = prior.endToEndId === c.end_to_end_id && prior.amountCents === BigInt(c.amount_cents) && prior.reason === c.reason;
  return same
    ? ok({ id: Number(prior.id), status: prior.status, created: false })
    : fail('idempotency_key_reused', 'idempotency_key was already used with a different refund', 'idempotency_key');
}
