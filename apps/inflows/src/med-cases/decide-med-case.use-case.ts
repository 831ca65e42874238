import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DecideMedCaseCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { InflowsConfig } from '../config/inflows.config';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { pixInRefundStateChanged } from '../pix-in-refunds/pix-in-refund-event';
import { PixInRefundRepository } from '../pix-in-refunds/pix-in-refund.repository';
import { newProviderId } from '../pix-in-refunds/refund-pix-in.use-case';
import { medCaseChanged, toMedCaseView } from './med-case-event';
import { MedCaseRecord, MedCaseRepository } from './med-case.repository';
import { releaseBlock, unblockInflow } from './med-case-release';
import { DECISIONS_OF } from './med-case-rules';

type Reply = RequestReply<typeof Topics.InflowsDecideMedCase>;

/**
 * inflows.command.decide-med-case.v1: the operator decides an open MED case, in one transaction with its
 * med-case-changed event (and the inflow's pix_in event when its status changes), under the end-to-end id's
 * advisory lock (the one a partner's refund and a new case take):
 * - agree (a report): `agreed`, the funds stay blocked for the refund request to come; AGREED;
 * - disagree (a report) / reject (a request): `disagreed` / `rejected`, the block released (med_release), the
 *   inflow back to its status before the block once no case holds it; DISAGREED / REJECTED with the reason;
 * - accept (a request): `returning`: the blocked cents (up to amount_cents; the rest released) leave the blocked
 *   balance (med_return) as a devolução of the refunds' machinery (a pix_in_refunds row naming the case), which
 *   settles it: `returned` with TOTALLY_ or PARTIALLY_ACCEPTED, or back to `open` with the cents blocked again
 *   (MedCaseReturns).
 */
@Injectable()
export class DecideMedCaseUseCase {
  private readonly logger = new Logger('MedCases');

  constructor(
    private readonly config: InflowsConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly cases: MedCaseRepository,
    private readonly inflows: PixInflowRepository,
    private readonly refunds: PixInRefundRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async execute(c: DecideMedCaseCommand): Promise<Reply> {
    const seen = await this.cases.find(c.case_id);
    if (!seen) return fail('med_case_not_found', `no MED case ${c.case_id}`, 'case_id');
    return this.unitOfWork.run(async (tx) => {
      await this.inflows.lockEndToEndId(tx, seen.endToEndId);
      const found = await this.cases.lock(tx, c.case_id);
      if (!found) throw new Error(`MED case ${c.case_id} is gone`);
      if (found.status !== 'open')
        return fail('med_case_not_open', `MED case ${c.case_id} is ${found.status}: only an open case is decided`);
      if (!DECISIONS_OF[found.kind].includes(c.decision))
        return fail(
          'med_decision_invalid',
          `${c.decision} does not decide a ${found.kind}: its decisions are ${DECISIONS_OF[found.kind].join(' and ')}`,
          'decision',
        );
      const now = new Date();
      const decided = { analysisDetails: c.details, decidedBy: c.by };
      if (c.decision === 'agree') return this.changed(tx, found, { ...decided, status: 'agreed', dictResult: 'AGREED' }, now);
      if (c.decision === 'accept') return this.accept(tx, found, c, now);
      await releaseBlock(tx, this.accounts, found, found.blockedCents, now);
      const closed =
        c.decision === 'disagree'
          ? await this.cases.update(tx, found, { ...decided, status: 'disagreed', dictResult: 'DISAGREED', blockedCents: 0n }, now)
          : await this.cases.update(
              tx,
              found,
              { ...decided, status: 'rejected', dictResult: 'REJECTED', rejectionReason: c.rejection_reason ?? 'OTHER', blockedCents: 0n },
              now,
            );
      await unblockInflow(tx, this.inflows, this.cases, closed, now);
      return this.reported(tx, closed);
    });
  }

  private async accept(tx: Transaction, found: MedCaseRecord, c: DecideMedCaseCommand, now: Date): Promise<Reply> {
    if (!this.config.PIX_API_URL)
      return fail('not_implemented', 'MED returns are not enabled on this deployment: it has no Pix API (PIX_API_URL)');
    const cents = c.amount_cents === undefined ? found.blockedCents : BigInt(c.amount_cents);
    if (found.blockedCents === 0n || !found.user)
      return fail(
        'invalid_amount',
        `MED case ${found.caseId} blocks nothing: there is nothing to return (reject it, NO_BALANCE)`,
        'amount_cents',
      );
    if (cents > found.blockedCents)
      return fail(
        'invalid_amount',
        `MED case ${found.caseId} blocks ${found.blockedCents} cents: it cannot return ${cents}`,
        'amount_cents',
      );
    const { partnerId, document } = found.user;
    const inflow = await this.inflows.lockForPartner(tx, partnerId, found.endToEndId);
    if (!inflow) throw new Error(`MED case ${found.caseId}: the inflow whose ${cents} cents it blocks is gone`);
    await this.inflows.reserveRefund(tx, inflow, cents);
    const refund = await this.refunds.create(tx, partnerId, {
      document,
      endToEndId: found.endToEndId,
      idempotencyKey: randomUUID(),
      amountCents: cents,
      reason: `MED ${found.reason}: devolucao do caso ${found.caseId}`,
      providerId: newProviderId(),
      now,
      medCaseId: found.caseId,
    });
    await this.accounts.medReturn(tx, partnerId, document, {
      endToEndId: found.endToEndId,
      caseId: found.caseId,
      amountCents: cents,
      refundId: refund.id,
      at: now,
    });
    await releaseBlock(tx, this.accounts, found, found.blockedCents - cents, now);
    tx.emit(pixInRefundStateChanged(refund));
    return this.changed(
      tx,
      found,
      { status: 'returning', blockedCents: 0n, refundId: refund.id, analysisDetails: c.details, decidedBy: c.by },
      now,
    );
  }

  private async changed(
    tx: Transaction,
    found: MedCaseRecord,
    change: Parameters<MedCaseRepository['update']>[2],
    now: Date,
  ): Promise<Reply> {
    return this.reported(tx, await this.cases.update(tx, found, change, now));
  }

  private reported(tx: Transaction, c: MedCaseRecord): Reply {
    tx.emit(medCaseChanged(c));
    this.logger.log(`MED ${c.kind} ${c.caseId}: ${c.status} by ${c.decidedBy} (blocked ${c.blockedCents}, DICT ${c.dictResult ?? '-'})`);
    return ok(toMedCaseView(c));
  }
}
