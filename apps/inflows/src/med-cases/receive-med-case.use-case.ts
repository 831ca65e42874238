import { Injectable, Logger } from '@nestjs/common';
import { MedCaseAttention, MedCaseReceivedEvent } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { AccountRepository } from '../accounts/account.repository';
import { pixInStateChanged } from '../pix-inflows/pix-in-event';
import { PixInflowRecord, PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { medCaseChanged } from './med-case-event';
import { MedCaseRepository } from './med-case.repository';
import { BLOCKABLE, planBlock } from './med-case-rules';

/**
 * pix-keys.event.med-case-received.v1: DICT holds a MED case against an inflow. Recorded once per case_id (a
 * redelivery changes nothing) and, in the same transaction, the cents it reaches blocked out of the user's
 * available balance (planBlock: never more than is there; a refund request takes over its report's block), a
 * med_block ledger line, the inflow moved to `blocked` with its pix_in event, and the case's `open` event. Under
 * the end-to-end id's advisory lock, the one a partner's refund takes: the two never take the same cents. A
 * payment no inflow has, or one not credited, is recorded anyway with nothing blocked and flagged for the
 * operator: the message is never thrown away.
 */
@Injectable()
export class ReceiveMedCaseUseCase {
  private readonly logger = new Logger('MedCases');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly cases: MedCaseRepository,
    private readonly inflows: PixInflowRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** `event` was validated at the consumer boundary (@HandleEvent). */
  execute(event: MedCaseReceivedEvent): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      const now = new Date();
      await this.inflows.lockEndToEndId(tx, event.end_to_end_id);
      if (await this.cases.lock(tx, event.case_id)) return;
      const inflow = await this.inflows.findByEndToEndId(tx, event.end_to_end_id);
      if (!inflow || !BLOCKABLE.includes(inflow.status)) {
        await this.recordUnblocked(tx, event, inflow, now);
        return;
      }
      await this.block(tx, event, inflow, now);
    });
  }

  private async block(tx: Transaction, event: MedCaseReceivedEvent, inflow: PixInflowRecord, now: Date): Promise<void> {
    const user = { partnerId: inflow.partnerId, document: inflow.document };
    const others = await this.cases.lockBlockingOf(tx, inflow.endToEndId);
    const account = await this.accounts.lock(tx, user.partnerId, user.document);
    const plan = planBlock({
      kind: event.kind,
      requestedCents: event.amount_cents === null ? null : BigInt(event.amount_cents),
      reachCents: inflow.amountCents - inflow.refundedCents,
      others,
      availableCents: account?.availableBrlCents ?? 0n,
    });
    const attention: MedCaseAttention | null = plan.blockedCents < plan.askedCents ? 'insufficient_funds' : null;
    const recorded = await this.cases.record(
      tx,
      { ...caseOf(event), user, askedCents: plan.askedCents, blockedCents: plan.blockedCents, attention },
      now,
    );
    if (!recorded) return;
    const movement = { endToEndId: inflow.endToEndId, at: now };
    for (const t of plan.takeOver) {
      const report = others.find((o) => o.caseId === t.caseId);
      if (!report) throw new Error(`MED case ${t.caseId} is not among the payment's`);
      if (t.releasedCents > 0n)
        await this.accounts.medRelease(tx, user.partnerId, user.document, { ...movement, caseId: t.caseId, amountCents: t.releasedCents });
      await this.cases.update(tx, report, { blockedCents: 0n }, now);
    }
    if (
      plan.topUpCents > 0n &&
      !(await this.accounts.medBlock(tx, user.partnerId, user.document, {
        ...movement,
        caseId: event.case_id,
        amountCents: plan.topUpCents,
      }))
    )
      throw new Error(`MED case ${event.case_id}: the user's account locked for the plan is gone`);
    if (plan.blockedCents > 0n && inflow.status !== 'blocked')
      tx.emit(pixInStateChanged(await this.inflows.move(tx, inflow.partnerId, inflow.id, 'blocked', now)));
    tx.emit(medCaseChanged(recorded));
    this.logger.log(
      `MED ${event.kind} ${event.case_id} on ${inflow.endToEndId}: ${plan.blockedCents} of ${plan.askedCents} cents blocked (${plan.takeOver.length} report(s) taken over)`,
    );
  }

  /** A case on a payment no inflow has, or one not in the balance: recorded, nothing blocked, flagged. */
  private async recordUnblocked(tx: Transaction, event: MedCaseReceivedEvent, inflow: PixInflowRecord | null, now: Date): Promise<void> {
    const attention: MedCaseAttention = inflow ? 'inflow_not_credited' : 'inflow_unknown';
    const recorded = await this.cases.record(
      tx,
      {
        ...caseOf(event),
        user: inflow && { partnerId: inflow.partnerId, document: inflow.document },
        askedCents: BigInt(event.amount_cents ?? (inflow ? inflow.amountCents - inflow.refundedCents : 0n)),
        blockedCents: 0n,
        attention,
      },
      now,
    );
    if (!recorded) return;
    tx.emit(medCaseChanged(recorded));
    this.logger.warn(`MED ${event.kind} ${event.case_id} on ${event.end_to_end_id}: ${attention}, nothing blocked: for the operator`);
  }
}

const caseOf = (e: MedCaseReceivedEvent) => ({
  caseId: e.case_id,
  kind: e.kind,
  reason: e.reason,
  endToEndId: e.end_to_end_id,
  details: e.details,
  infractionReportId: e.infraction_report_id,
  openedBy: e.opened_by,
  openedAt: new Date(e.opened_at),
});
