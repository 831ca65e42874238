import { Injectable } from '@nestjs/common';
import { Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { apiErrorOf } from '../http/api-error';
import { unwrap } from '../http/unwrap-reply';
import { applyCredit } from '../users/credit-user.use-case';
import type { Actor } from '../operators/operator-name';
import { ApprovalRepository } from './approval.repository';
import { toApprovalView, toWithdrawalApprovalView } from './approval-view';
import { ApprovalDecision, DecidedApprovalView } from './approvals.dto';

const STATUS_OF: Record<ApprovalDecision, 'approved' | 'rejected'> = { approve: 'approved', reject: 'rejected' };

/**
 * A second operator key decides a pending credit (dual control). The key that asked is refused
 * (same_operator), whatever the state. The decision is recorded first (one guarded UPDATE: of concurrent
 * deciders one wins), then an approved credit is applied under its own idempotency key, so the same
 * approval again (a retry after a 503, or a concurrent approver) applies nothing more and answers the
 * balance; the opposite decision on a decided request is invalid_transition.
 */
@Injectable()
export class DecideApprovalUseCase {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly bus: MessageBus,
  ) {}

  async execute(id: string, decision: ApprovalDecision, note: string | undefined, by: Actor): Promise<DecidedApprovalView> {
    const found = await this.approvals.findById(id);
    if (!found) return this.decideWithdrawal(id, decision, note, by);
    if (found.requestedByKeyId === by.keyId)
      throw apiErrorOf({
        code: 'same_operator',
        message: `approval ${id} was asked for with this operator key: another key must approve or reject it`,
      });
    const wanted = STATUS_OF[decision];
    const decided =
      (found.status === 'pending_approval' && (await this.approvals.decide(id, wanted, by, note ?? null))) ||
      (await this.approvals.findById(id));
    if (!decided) throw new Error(`approval ${id} vanished`);
    if (decided.status !== wanted)
      throw apiErrorOf({ code: 'invalid_transition', message: `approval ${id} is ${decided.status}: it cannot be ${wanted} now` });
    const view = toApprovalView(decided);
    if (wanted === 'rejected') return { ...view, available_usdt_micros: null, held_usdt_micros: null };
    const credit = { usdt_micros: decided.usdtMicros, idempotency_key: decided.idempotencyKey, reference: decided.reference };
    const operators = `${decided.requestedBy}; approved by ${decided.decidedBy ?? by.name}`;
    const balance = await applyCredit(this.bus, decided.partnerId, decided.document, credit, { operators, clientAddress: by.address });
    return { ...view, available_usdt_micros: balance.available_usdt_micros, held_usdt_micros: balance.held_usdt_micros };
  }

  /** Not a credit's: a withdrawal's, decided by the withdrawals service (not_found when it has none either). */
  private async decideWithdrawal(
    id: string,
    decision: ApprovalDecision,
    note: string | undefined,
    by: Actor,
  ): Promise<DecidedApprovalView> {
    const decided = unwrap(
      await this.bus.request(Topics.WithdrawalsDecideApproval, {
        approval_id: id,
        decision,
        ...(note ? { note } : {}),
        by: by.name,
        asked_at: new Date().toISOString(),
      }),
    );
    return { ...toWithdrawalApprovalView(decided), available_usdt_micros: null, held_usdt_micros: null };
  }
}
