import { Injectable, Logger } from '@nestjs/common';
import { PixInRefundStatus } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { retryDelayMs, RetryPolicy } from '@partner/runtime';
import { errorText } from '@partner/tracing';
import { AccountRepository } from '../accounts/account.repository';
import { InflowsConfig } from '../config/inflows.config';
import { MedCaseReturns } from '../med-cases/med-case-returns';
import { statusAfterReturn } from '../med-cases/med-case-rules';
import { pixInStateChanged } from '../pix-inflows/pix-in-event';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { pixInRefundStateChanged } from './pix-in-refund-event';
import { PixInRefundRecord, PixInRefundRepository } from './pix-in-refund.repository';
import { PixRefunds, RefundCall } from './pix-refunds.port';

/** At most this many refunds per round, claimed one at a time. */
const ROUND_SIZE = 20;

/**
 * The calls one refund's attempt makes at most, each within PIX_API_TIMEOUT_MS (the adapter's deadline on a
 * call, and on the token request before it when the token must be renewed): a token and the read back, a
 * token and the request.
 */
const CALLS_PER_REFUND = 4;

/** What a lease has to spare beyond the calls: the claim's and the settlement's transactions. */
const LEASE_SPARE_MS = 5_000;

/** What became of a refund after one call: its next status, and what to record with it. */
interface Next {
  status: PixInRefundStatus;
  rtrId?: string;
  failureReason?: string;
  /** A retry: the refund due again after this long. */
  retryInMs?: number;
}

/**
 * The refunds' round (SendPixInRefundsService runs it every PIX_API_POLL_MS), on the refunds' queue (libs/db
 * WorkQueue, see PixInRefundRepository): it claims up to ROUND_SIZE due refunds one at a time (each one attempt
 * more, leased to this round), and asks the provider for each (`created`) or asks it about one (`processing`),
 * outside any transaction (no row lock nor connection is held while the provider answers), and records the
 * answer in one transaction with its events and money, only if the claim still holds the refund (the same
 * attempt, still created or processing: a round that outlived its lease, whose refund another round claimed
 * since, changes nothing; that round's answer counts):
 * - EM_PROCESSAMENTO: `processing`, asked about again after PIX_API_POLL_MS;
 * - DEVOLVIDO: `success`; the inflow, locked here, counts it as returned and takes the status statusAfterReturn
 *   decides (`partially_returned`, then `returned`; a `blocked` one stays blocked), with its pix_in event;
 * - NAO_REALIZADO, or the request refused (400/404): `failed` with the reason; its cents go back to the inflow
 *   and its amount back to the user's balance (a pix_in_refund_reversal ledger line);
 * - no useful answer: tried again after retryDelayMs (the provider's Retry-After at the least), its status
 *   kept. A `created` refund is read back (GET) before it is asked, the first time too, since an ask may have
 *   reached the provider without a trace here (asking an id twice is refused); after PIX_API_MAX_ATTEMPTS it
 *   is failed only once the provider says it has no such devolução, so money is never both returned and
 *   credited back.
 * A MED case's devolução (medCaseId) is settled by MedCaseReturns instead: its cents came from, and go back to,
 * the blocked balance, and its case is returned or reopened.
 *
 * At least once: each refund is claimed on its own, leased for its own calls (leaseMs); a round that dies leaves
 * that one refund leased, and once the lease is over another round claims it and reads it back before asking.
 */
@Injectable()
export class SendPixInRefundsUseCase {
  private readonly logger = new Logger('SendPixInRefunds');
  private readonly policy: RetryPolicy;

  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly refunds: PixInRefundRepository,
    private readonly inflows: PixInflowRepository,
    private readonly accounts: AccountRepository,
    private readonly provider: PixRefunds,
    private readonly medReturns: MedCaseReturns,
  ) {
    this.policy = { baseMs: config.PIX_API_RETRY_BASE_MS, maxMs: config.PIX_API_RETRY_MAX_MS };
  }

  /**
   * One round; answers how many refunds it claimed (a full round means more may be due). A refund whose
   * outcome could not be recorded ends the round, which throws once the refund is given back.
   */
  async execute(): Promise<number> {
    let claimed = 0;
    while (claimed < ROUND_SIZE) {
      const claimedAt = new Date();
      const [refund] = await this.refunds.claimDue(claimedAt, new Date(claimedAt.getTime() + this.leaseMs()), 1);
      if (!refund) break;
      claimed += 1;
      try {
        const next = await this.call(refund);
        await this.unitOfWork.run((tx) => this.apply(tx, refund, next));
      } catch (error) {
        // Nothing of this attempt is recorded: asked again (read back first) after the backoff.
        const retryInMs = retryDelayMs(refund.attempts, this.policy);
        this.logger.error(
          `refund ${refund.id}: attempt ${refund.attempts} not recorded, tried again in ${retryInMs} ms: ${errorText(error)}`,
        );
        await this.giveBack(refund, new Date(Date.now() + retryInMs));
        throw new Error(`the refunds' round stopped at refund ${refund.id}: ${errorText(error)}`);
      }
    }
    return claimed;
  }

  /**
   * How long a claim holds its refund: its calls, CALLS_PER_REFUND of up to PIX_API_TIMEOUT_MS, and
   * LEASE_SPARE_MS (45 s at the default 10 s). A shorter lease would let another round claim, and ask, a refund
   * this one is still asking; a longer one only delays a refund whose round died.
   */
  private leaseMs(): number {
    return CALLS_PER_REFUND * this.config.PIX_API_TIMEOUT_MS + LEASE_SPARE_MS;
  }

  /** A claimed refund due again at `at`, its outcome lost; if even that fails, its lease gives it back. */
  private async giveBack(refund: PixInRefundRecord, at: Date): Promise<void> {
    try {
      await this.refunds.retryLater(refund, at);
    } catch (error) {
      this.logger.warn(`refund ${refund.id} waits for the end of its lease: ${errorText(error)}`);
    }
  }

  private async call(refund: PixInRefundRecord): Promise<Next> {
    const ref = { endToEndId: refund.endToEndId, providerId: refund.providerId };
    if (refund.status === 'processing') return this.nextOf(refund, await this.provider.read(ref));
    // Read before asking, the first time too: an attempt whose outcome was lost after the provider took the
    // request (the process died, the commit failed) left no trace here but its count, yet a devolução there.
    // Asked again, the provider refuses the id it holds, and the refund would fail and be credited back while
    // its money was returned.
    const known = await this.provider.read(ref);
    if (known.outcome !== 'not_found') return this.nextOf(refund, known);
    // The claim counted this attempt: the attempts made before it are one fewer (what `attempts` was before the
    // queue counted at claim). Given up once PIX_API_MAX_ATTEMPTS of them went unaccepted, as before.
    const before = refund.attempts - 1;
    if (before >= this.config.PIX_API_MAX_ATTEMPTS)
      return { status: 'failed', failureReason: `the Pix provider did not accept the return after ${before} attempts` };
    return this.nextOf(refund, await this.provider.request(ref, refund.amountCents, refund.reason));
  }

  private nextOf(refund: PixInRefundRecord, call: RefundCall): Next {
    switch (call.outcome) {
      case 'answered': {
        const { status, rtrId, motivo } = call.devolucao;
        if (status === 'DEVOLVIDO') return { status: 'success', rtrId };
        if (status === 'NAO_REALIZADO')
          return { status: 'failed', rtrId, failureReason: motivo ?? 'the Pix provider did not make the return' };
        return { status: 'processing', rtrId, retryInMs: this.config.PIX_API_POLL_MS };
      }
      case 'refused':
        return { status: 'failed', failureReason: call.reason };
      case 'not_found':
        // Only a `processing` refund is read without a fallback: the provider accepted it, then lost it. Asked again later.
        this.logger.error(`refund ${refund.id}: the Pix provider has no devolução ${refund.providerId} it accepted before`);
        return { status: refund.status, retryInMs: retryDelayMs(refund.attempts, this.policy) };
      case 'unavailable':
        // `attempts` counts this attempt, the retryDelayMs'th failed: the first waits about PIX_API_RETRY_BASE_MS.
        return { status: refund.status, retryInMs: retryDelayMs(refund.attempts, this.policy, call.retryAfterMs) };
    }
  }

  /** Records the attempt's outcome, in one transaction with its events and money, if the claim still holds the refund. */
  private async apply(tx: Transaction, refund: PixInRefundRecord, next: Next): Promise<void> {
    // The end-to-end id's lock first, as a partner's refund and the MED cases take it: then the inflow, a case and
    // the account are locked in one order by all of them (a MED decision locks the account before the inflow).
    await this.inflows.lockEndToEndId(tx, refund.endToEndId);
    const now = new Date();
    const moved = await this.refunds.settle(tx, refund, {
      status: next.status,
      rtrId: next.rtrId ?? null,
      failureReason: next.failureReason ?? null,
      nextAttemptAt: new Date(now.getTime() + (next.retryInMs ?? 0)),
      now,
    });
    if (!moved) {
      this.logger.warn(
        `refund ${refund.id}: attempt ${refund.attempts} outlived its lease and was claimed again; its outcome is not recorded`,
      );
      return;
    }
    if (moved.status === refund.status) return;
    tx.emit(pixInRefundStateChanged(moved));
    const inflow = await this.inflows.lockForPartner(tx, refund.partnerId, refund.endToEndId);
    if (!inflow) throw new Error(`refund ${refund.id}: its inflow ${refund.endToEndId} is gone`);
    if (moved.medCaseId !== null) {
      await this.medReturns.apply(tx, moved, inflow, now);
    } else if (moved.status === 'success') {
      const status = statusAfterReturn(inflow, refund.amountCents, 'partner_refund');
      tx.emit(pixInStateChanged(await this.inflows.countReturn(tx, inflow, refund.amountCents, status, now)));
    } else if (moved.status === 'failed') {
      await this.inflows.releaseRefund(tx, refund.partnerId, inflow.id, refund.amountCents);
      await this.accounts.creditBackRefund(tx, refund.partnerId, refund.document, {
        endToEndId: refund.endToEndId,
        refundId: refund.id,
        amountCents: refund.amountCents,
        at: now,
      });
    }
  }
}
