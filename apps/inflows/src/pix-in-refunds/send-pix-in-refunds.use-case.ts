import { Injectable, Logger } from '@nestjs/common';
import { PixInRefundStatus } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { InflowsConfig } from '../config/inflows.config';
import { MedCaseReturns } from '../med-cases/med-case-returns';
import { statusAfterReturn } from '../med-cases/med-case-rules';
import { pixInStateChanged } from '../pix-inflows/pix-in-event';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { pixInRefundStateChanged } from './pix-in-refund-event';
import { PixInRefundRecord, PixInRefundRepository } from './pix-in-refund.repository';
import { PixRefunds, RefundCall } from './pix-refunds.port';

/** At most this many refunds per round, each in its own transaction (a round holds one row lock at a time). */
const ROUND_SIZE = 20;

/** What became of a refund after one call: its next status, and what to record with it. */
interface Next {
  status: PixInRefundStatus;
  rtrId?: string;
  failureReason?: string;
  /** A retry: the attempt counted, the refund due again after this long. */
  retryInMs?: number;
}

/**
 * The refunds' round (SendPixInRefundsService runs it every PIX_API_POLL_MS): each refund due is asked of the
 * provider (`created`) or asked about (`processing`), and moved by the answer, in one transaction with its
 * events and money:
 * - EM_PROCESSAMENTO: `processing`, asked about again after PIX_API_POLL_MS;
 * - DEVOLVIDO: `success`; the inflow, locked here, counts it as returned and takes the status statusAfterReturn
 *   decides (`partially_returned`, then `returned`; a `blocked` one stays blocked), with its pix_in event;
 * - NAO_REALIZADO, or the request refused (400/404): `failed` with the reason; its cents go back to the inflow
 *   and its amount back to the user's balance (a pix_in_refund_reversal ledger line);
 * - no useful answer: tried again with backoff, its status kept. A `created` refund that was tried before is
 *   read back (GET) before it is asked again, since the first ask may have reached the provider (asking an id
 *   twice is refused); after PIX_API_MAX_ATTEMPTS it is failed only once the provider says it has no such
 *   devolução, so money is never both returned and credited back.
 * A MED case's devolução (medCaseId) is settled by MedCaseReturns instead: its cents came from, and go back to,
 * the blocked balance, and its case is returned or reopened.
 */
@Injectable()
export class SendPixInRefundsUseCase {
  private readonly logger = new Logger('SendPixInRefunds');

  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly refunds: PixInRefundRepository,
    private readonly inflows: PixInflowRepository,
    private readonly accounts: AccountRepository,
    private readonly provider: PixRefunds,
    private readonly medReturns: MedCaseReturns,
  ) {}

  /** One round; answers how many refunds it handled (a full round means more may be due). */
  async execute(): Promise<number> {
    let handled = 0;
    while (handled < ROUND_SIZE) {
      const done = await this.unitOfWork.run(async (tx) => {
        const [refund] = await this.refunds.lockDue(tx, new Date(), 1);
        if (!refund) return false;
        await this.apply(tx, refund, await this.call(refund));
        return true;
      });
      if (!done) break;
      handled += 1;
    }
    return handled;
  }

  private async call(refund: PixInRefundRecord): Promise<Next> {
    const ref = { endToEndId: refund.endToEndId, providerId: refund.providerId };
    if (refund.status === 'processing') return this.nextOf(refund, await this.provider.read(ref));
    // Read before asking, the first time too: a round whose transaction was lost after the provider took the
    // request (the process died, the commit failed) left no trace here, attempts 0, but a devolução there. Asked
    // again, the provider refuses the id it holds, and the refund would fail and be credited back while its
    // money was returned.
    const known = await this.provider.read(ref);
    if (known.outcome !== 'not_found') return this.nextOf(refund, known);
    if (refund.attempts >= this.config.PIX_API_MAX_ATTEMPTS)
      return { status: 'failed', failureReason: `the Pix provider did not accept the return after ${refund.attempts} attempts` };
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
        return { status: refund.status, retryInMs: this.backoffMs(refund.attempts) };
      case 'unavailable':
        return { status: refund.status, retryInMs: call.retryAfterMs ?? this.backoffMs(refund.attempts) };
    }
  }

  private async apply(tx: Transaction, refund: PixInRefundRecord, next: Next): Promise<void> {
    const now = new Date();
    const moved = await this.refunds.update(tx, refund.partnerId, refund.id, {
      status: next.status,
      rtrId: next.rtrId ?? null,
      failureReason: next.failureReason ?? null,
      attempts: refund.attempts + 1,
      nextAttemptAt: new Date(now.getTime() + (next.retryInMs ?? 0)),
      now,
    });
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

  private backoffMs(attempts: number): number {
    return Math.min(this.config.PIX_API_RETRY_MAX_MS, this.config.PIX_API_RETRY_BASE_MS * 2 ** Math.min(attempts, 30));
  }
}
