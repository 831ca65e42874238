import { Injectable } from '@nestjs/common';
import { fail, IngestPixInflowCommand, ok, RequestReply, Topics } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/db';
import { pixInStateChanged } from './pix-in-event';
import { transitionOf } from './pix-in-transitions';
import { PixInflowRecord, PixInflowRepository } from './pix-inflow.repository';

type Reply = RequestReply<typeof Topics.InflowsIngest>;

/**
 * Applies a Pix provider notification (docs/api.md: "Pix provider ingestion"): the first one of an
 * end-to-end id records the inflow at its status, later ones move it along PIX_IN_TRANSITIONS. Each
 * change and its pix_in event are one unit of work (the event's outbox row before COMMIT); a repeated
 * or late notification changes nothing and emits nothing. The inflow's row is locked while a
 * notification applies, so two deliveries of one notification cannot both move it.
 */
@Injectable()
export class IngestPixInflowUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly inflows: PixInflowRepository,
  ) {}

  execute(n: IngestPixInflowCommand): Promise<Reply> {
    return this.unitOfWork.run(async (tx) => {
      const now = new Date();
      const existing = await this.inflows.lockByEndToEndId(tx, n.partner_id, n.end_to_end_id);
      if (existing) return this.apply(tx, existing, n, now);
      const recorded = await this.inflows.recordNotified(tx, n.partner_id, n, now);
      if (recorded === 'user_not_found') return fail('user_not_found', `no user with document ${n.document}`);
      if (recorded !== 'taken') {
        tx.emit(pixInStateChanged(recorded));
        return ok({ end_to_end_id: recorded.endToEndId, status: recorded.status, created: true });
      }
      // Taken: by a concurrent first notification of this partner (committed now, so visible), or by another partner.
      const concurrent = await this.inflows.lockByEndToEndId(tx, n.partner_id, n.end_to_end_id);
      return concurrent
        ? this.apply(tx, concurrent, n, now)
        : fail('end_to_end_id_conflict', `end_to_end_id ${n.end_to_end_id} is recorded with other details`, 'end_to_end_id');
    });
  }

  private async apply(tx: Transaction, inflow: PixInflowRecord, n: IngestPixInflowCommand, now: Date): Promise<Reply> {
    if (!sameInflow(inflow, n))
      return fail('end_to_end_id_conflict', `end_to_end_id ${n.end_to_end_id} is recorded with other details`, 'end_to_end_id');
    const transition = transitionOf(inflow.status, n.status);
    if (transition === 'refuse')
      return fail('invalid_transition', `a pix inflow cannot move from ${inflow.status} to ${n.status}`, 'status');
    if (transition === 'keep') return ok({ end_to_end_id: inflow.endToEndId, status: inflow.status, created: false });
    const moved = await this.inflows.move(tx, inflow.partnerId, inflow.id, n.status, now);
    tx.emit(pixInStateChanged(moved));
    return ok({ end_to_end_id: moved.endToEndId, status: moved.status, created: false });
  }
}

/** Whether a notification describes the recorded inflow: everything but its status must match. */
function sameInflow(r: PixInflowRecord, n: IngestPixInflowCommand): boolean {
  return (
    r.document === n.document &&
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
