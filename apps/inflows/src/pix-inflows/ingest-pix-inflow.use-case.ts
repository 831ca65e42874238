import { Injectable } from '@nestjs/common';
import { fail, IngestPixInflowCommand, ok, PixInStatus, RequestReply, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository, UserAccountRecord } from '../accounts/account.repository';
import { InflowsConfig } from '../config/inflows.config';
import { PartnerStatusRepository } from '../partner-statuses/partner-status.repository';
import { pixInStateChanged } from './pix-in-event';
import { transitionOf } from './pix-in-transitions';
import { PixInflowRecord, PixInflowRepository } from './pix-inflow.repository';
import { InflowRefusal, UnmatchedPixInflowRecord, UnmatchedPixInflowRepository } from './unmatched-pix-inflow.repository';

type Reply = RequestReply<typeof Topics.InflowsIngest>;

const conflict = (n: IngestPixInflowCommand): Reply =>
  fail('end_to_end_id_conflict', `end_to_end_id ${n.end_to_end_id} is recorded with other details`, 'end_to_end_id');

/**
 * Applies a Pix provider notification (docs/api.md: "Pix provider ingestion"). It names the receiving
 * account, as an SPI credit notification does; the account (at OPERATOR_ISPB) says whose the inflow is. The
 * first notification of an end-to-end id records the inflow at its status, for the account's user, or, when
 * no user has the account, the account is blocked or closed, or its partner is disabled, refuses it to the provider with that reason
 * (the SPI's AC03, AC06, AC04: the provider rejects the credit, the payer's bank gets its money back) and keeps
 * it aside (unmatched_pix_inflows: for the operator, credited to no one); later ones move it along
 * PIX_IN_TRANSITIONS, wherever it was recorded (one kept aside answered with its refusal again). Each change of a user's inflow, its
 * pix_in event and, on reaching `credited`, the credit of its amount to the user's BRL account with its
 * ledger entry, are one unit of work. A repeated or late notification changes nothing, emits nothing and
 * credits nothing. The notifications of one end-to-end id apply one after the other (a lock on the id for
 * the transaction), so two deliveries of one notification cannot both move (or credit) it, and an id is
 * recorded in one place only.
 */
@Injectable()
export class IngestPixInflowUseCase {
  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
    private readonly unmatched: UnmatchedPixInflowRepository,
    private readonly accounts: AccountRepository,
    private readonly partners: PartnerStatusRepository,
  ) {}

  execute(n: IngestPixInflowCommand): Promise<Reply> {
    return this.unitOfWork.run(async (tx) => {
      const now = new Date();
      await this.inflows.lockEndToEndId(tx, n.end_to_end_id);
      const existing = await this.inflows.findByEndToEndId(tx, n.end_to_end_id);
      if (existing) return this.apply(tx, existing, n, now);
      const kept = await this.unmatched.findByEndToEndId(tx, n.end_to_end_id);
      if (kept) return this.applyUnmatched(tx, kept, n, now);

      const account = n.receiver_account.ispb === this.config.OPERATOR_ISPB ? await this.accounts.ownerOf(tx, n.receiver_account) : null;
      const refusal = await this.refusalFor(tx, account);
      if (!account || refusal) {
        const recorded = await this.unmatched.record(tx, n, refusal ?? 'account_not_found', now);
        // Under the id's lock nothing else can have taken it: a row without the lock would be a bug of ours.
        if (!recorded) throw new Error(`end_to_end_id ${n.end_to_end_id} taken while locked`);
        return refusedFor(recorded);
      }
      const recorded = await this.inflows.recordNotified(tx, account, n, now);
      if (!recorded) throw new Error(`end_to_end_id ${n.end_to_end_id} taken while locked`);
      await this.reached(tx, recorded);
      return ok({ end_to_end_id: recorded.endToEndId, status: recorded.status, created: true, matched: true });
    });
  }

  /** Why the account cannot receive: none has that number, it is closed, or blocked (its own block or its partner disabled). */
  private async refusalFor(tx: Transaction, account: UserAccountRecord | null): Promise<InflowRefusal | null> {
    if (!account) return 'account_not_found';
    if (account.status === 'closed') return 'account_closed';
    if (account.status === 'blocked' || (await this.partners.isDisabled(tx, account.partnerId))) return 'account_blocked';
    return null;
  }

  private async apply(tx: Transaction, inflow: PixInflowRecord, n: IngestPixInflowCommand, now: Date): Promise<Reply> {
    if (!this.sameInflow(inflow, n)) return conflict(n);
    const transition = transitionOf(inflow.status, n.status);
    if (transition === 'refuse') return refused(inflow.status, n.status);
    if (transition === 'keep') return ok({ end_to_end_id: inflow.endToEndId, status: inflow.status, created: false, matched: true });
    const moved = await this.inflows.move(tx, inflow.partnerId, inflow.id, n.status, now);
    await this.reached(tx, moved);
    return ok({ end_to_end_id: moved.endToEndId, status: moved.status, created: false, matched: true });
  }

  /** A user's inflow reached its status: its pix_in event, and its credit when the status is `credited` (once: credited is final). */
  private async reached(tx: Transaction, inflow: PixInflowRecord): Promise<void> {
    tx.emit(pixInStateChanged(inflow));
    if (inflow.status === 'credited')
      await this.accounts.credit(tx, inflow.partnerId, inflow.document, {
        endToEndId: inflow.endToEndId,
        amountCents: inflow.amountCents,
        at: inflow.updatedAt,
      });
  }

  private async applyUnmatched(tx: Transaction, kept: UnmatchedPixInflowRecord, n: IngestPixInflowCommand, now: Date): Promise<Reply> {
    if (detailsOf(kept.notification) !== detailsOf(n)) return conflict(n);
    const from = kept.notification.status;
    const transition = transitionOf(from, n.status);
    if (transition === 'refuse') return refused(from, n.status);
    const moved = transition === 'move' ? await this.unmatched.move(tx, kept.id, n.status, now) : kept;
    if (moved.refusal) return refusedFor(moved);
    return ok({ end_to_end_id: n.end_to_end_id, status: moved.notification.status, created: false, matched: false });
  }

  /** Whether a notification describes the recorded inflow: everything but its status must match, the receiving account included. */
  private sameInflow(r: PixInflowRecord, n: IngestPixInflowCommand): boolean {
    return (
      n.receiver_account.ispb === this.config.OPERATOR_ISPB &&
      r.receiverBranch === n.receiver_account.branch &&
      r.receiverNumber === n.receiver_account.number &&
      r.receiverType === n.receiver_account.type &&
      r.receiverKey === (n.receiver_key ?? null) &&
      r.amountCents === BigInt(n.amount_cents) &&
      r.description === (n.description ?? null) &&
      r.method === n.method &&
      r.senderName === n.sender_name &&
      r.senderTaxId === n.sender_tax_id &&
      r.senderAccountNumber === n.sender_account_number &&
      r.senderAccountType === n.sender_account_type &&
      r.senderBankCode === n.sender_bank_code &&
      r.senderBranchCode === n.sender_branch_code
    );
  }
}

/** The answer to a notification of a Pix kept aside with a refusal: the same refusal, every time. */
function refusedFor(kept: UnmatchedPixInflowRecord): Reply {
  const { receiver_account: a } = kept.notification;
  const account = `${a.branch}/${a.number} (${a.type}) at ISPB ${a.ispb}`;
  const message = {
    account_not_found: `no account ${account}: refused, kept for the operator`,
    account_blocked: `account ${account} is blocked: refused, kept for the operator`,
    account_closed: `account ${account} is closed: refused, kept for the operator`,
  }[kept.refusal ?? 'account_not_found'];
  return fail(kept.refusal ?? 'account_not_found', message, 'receiver_account');
}

const refused = (from: PixInStatus, to: PixInStatus): Reply =>
  fail('invalid_transition', `a pix inflow cannot move from ${from} to ${to}`, 'status');

/** Everything of a notification but its status, in a canonical form: what a later notification of the same inflow must repeat. */
export const detailsOf = (n: IngestPixInflowCommand): string =>
  JSON.stringify([
    n.end_to_end_id,
    n.amount_cents,
    n.description ?? null,
    n.method,
    n.receiver_account.ispb,
    n.receiver_account.branch,
    n.receiver_account.number,
    n.receiver_account.type,
    n.receiver_key ?? null,
    n.sender_name,
    n.sender_tax_id,
    n.sender_account_number,
    n.sender_account_type,
    n.sender_bank_code,
    n.sender_branch_code,
  ]);
