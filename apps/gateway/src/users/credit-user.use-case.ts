import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreditAccountResult, CreditRequest, PartnerId, Topics } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { Approval, ApprovalRepository } from '../approvals/approval.repository';
import type { Actor } from '../operators/operator-name';
import { PartnerRepository } from '../auth/partner.repository';
import { GatewayConfig } from '../config/gateway.config';
import { apiErrorOf } from '../http/api-error';
import { unwrap } from '../http/unwrap-reply';
import { requireKnownPartner } from '../partners/known-partner';

/** What a credit did: applied now (or replayed), or waits for a second operator key (dual control). */
export type CreditOutcome = { credited: CreditAccountResult } | { pending: Approval };

/**
 * Applies a credit (withdrawals.command.credit-account.v2) under its idempotency key, naming on the ledger
 * line and the audit row the operator key(s) that credited and the client's address: the same key again is
 * answered `replayed` and credits nothing.
 */
export async function applyCredit(
  bus: MessageBus,
  partnerId: PartnerId,
  document: string,
  credit: CreditRequest,
  by?: { operators: string; clientAddress: string | null },
): Promise<CreditAccountResult> {
  const { usdt_micros, idempotency_key, reference } = credit;
  const command = {
    partner_id: partnerId,
    document,
    usdt_micros,
    idempotency_key,
    reference,
    ...(by ? { operators: by.operators } : {}),
    ...(by?.clientAddress ? { client_address: by.clientAddress } : {}),
  };
  return unwrap(await bus.request(Topics.WithdrawalsCreditAccount, command));
}

const reused = () =>
  apiErrorOf({
    code: 'idempotency_key_reused',
    message: 'idempotency_key was already used with a different credit',
    field: 'idempotency_key',
  });

/**
 * Credits a user's USDT balance. An operator's credit above CREDIT_APPROVAL_THRESHOLD_USDT_MICROS moves
 * nothing: it is recorded as a request that a second operator key approves or rejects (ApprovalsController);
 * the same request again (same key, document, amount and reference) answers that request. At or below the
 * threshold one key credits.
 */
@Injectable()
export class CreditUserUseCase {
  private readonly threshold: number;

  constructor(
    private readonly partners: PartnerRepository,
    private readonly bus: MessageBus,
    private readonly approvals: ApprovalRepository,
    config: GatewayConfig,
  ) {
    this.threshold = config.CREDIT_APPROVAL_THRESHOLD_USDT_MICROS;
  }

  /** The sandbox's credit (POST /sandbox/v1/users): no operator and no real money (SANDBOX refuses mainnet chains), so no approval. */
  async sandbox(partnerId: PartnerId, document: string, credit: CreditRequest): Promise<CreditAccountResult> {
    return applyCredit(this.bus, partnerId, document, credit);
  }

  async execute(pathPartnerId: string, document: string, credit: CreditRequest, by: Actor): Promise<CreditOutcome> {
    const partnerId = await requireKnownPartner(this.partners, pathPartnerId);
    const asked = await this.approvals.findByKey(partnerId, credit.idempotency_key);
    if (asked) return { pending: sameRequest(asked, document, credit) };
    if (credit.usdt_micros <= this.threshold)
      return { credited: await applyCredit(this.bus, partnerId, document, credit, { operators: by.name, clientAddress: by.address }) };
    // Refused now rather than at approval: the request names a user the books know.
    unwrap(await this.bus.request(Topics.WithdrawalsGetBalance, { partner_id: partnerId, document }));
    const request = {
      id: randomUUID(),
      partnerId,
      document,
      usdtMicros: credit.usdt_micros,
      idempotencyKey: credit.idempotency_key,
      reference: credit.reference,
    };
    const created = await this.approvals.request(request, by);
    if (created) return { pending: created };
    // A concurrent request with the same key won: it is this one again, or another credit.
    const winner = await this.approvals.findByKey(partnerId, credit.idempotency_key);
    if (!winner) throw new Error(`approval for idempotency key ${credit.idempotency_key} neither inserted nor found`);
    return { pending: sameRequest(winner, document, credit) };
  }
}

/** The request the key holds, when it is this credit again; else the key was used for another credit. */
function sameRequest(held: Approval, document: string, credit: CreditRequest): Approval {
  if (held.document !== document || held.usdtMicros !== credit.usdt_micros || held.reference !== credit.reference) throw reused();
  return held;
}
