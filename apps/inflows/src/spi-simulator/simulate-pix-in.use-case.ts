import { Injectable } from '@nestjs/common';
import { fail, ok, PixReceivedEvent, RequestReply, SimulatePixInCommand, SimulatePixInResult, Topics } from '@partner/contracts';
import { outboxMessage, Rejected, requestFingerprint, runIdempotent, UnitOfWork } from '@partner/db';
import { newEndToEndId } from './end-to-end-id';
import { completeSender } from './sender-details';
import { KeyedPayment, PaymentKey, SendOutcome, SpiPaymentRepository } from './spi-payment.repository';

type Reply = RequestReply<typeof Topics.InflowsSimulatePixIn>;

/**
 * The simulated Pix network sending a payment to one of our users (sandbox). Like the real SPI, it only
 * reaches accounts that exist, and a payment by key (`dict`) needs the key to be in the directory (our
 * replica of the user's registered key). It completes the sender, gives the payment its end-to-end id,
 * and announces it on the network's topic: the checks, the payment log and the announcement are one
 * unit of work (one statement, then the announcement's outbox row before COMMIT). Recording the inflow
 * is then the inflows side's job, as it would be for a real incoming Pix.
 *
 * With an idempotency key the request runs in the idempotent frame (runIdempotent): the key is bound to
 * the payment in the same statement, so a retry of the same request answers the same end-to-end id and
 * sends nothing more (one payment, so one inflow), and another request with the key is refused.
 */
@Injectable()
export class SimulatePixInUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payments: SpiPaymentRepository,
  ) {}

  execute(command: SimulatePixInCommand): Promise<Reply> {
    const key = command.idempotency_key;
    if (key === undefined) return this.unkeyed(command);
    const fingerprint = fingerprintOf(command);
    return runIdempotent<SimulatePixInResult, KeyedPayment, 'user_not_found' | 'pix_key_not_registered'>({
      refusalCodes: ['user_not_found', 'pix_key_not_registered'],
      idempotencyKey: key,
      fingerprint,
      attempt: async () => {
        const outcome = await this.send(command, { idempotencyKey: key, fingerprint });
        if (outcome === 'user_not_found' || outcome === 'pix_key_not_registered')
          throw new Rejected(outcome, refusal(outcome, command.document));
        return 'taken' in outcome ? outcome : { done: outcome };
      },
      find: () => this.payments.findByKey(command.partner_id, key),
      fingerprintOf: (stored) => stored.fingerprint,
      replay: (stored) => ({ end_to_end_id: stored.end_to_end_id }),
      requestNoun: 'sandbox Pix',
    });
  }

  private async unkeyed(command: SimulatePixInCommand): Promise<Reply> {
    const outcome = await this.send(command);
    if (outcome === 'user_not_found' || outcome === 'pix_key_not_registered') return fail(outcome, refusal(outcome, command.document));
    // Without a key nothing can be taken.
    if ('taken' in outcome) throw new Error('a payment without an idempotency key found its key taken');
    return ok(outcome);
  }

  /** One unit of work: the payment sent and announced, or the refusal / the key's earlier payment (nothing written). */
  private async send(command: SimulatePixInCommand, key?: PaymentKey): Promise<SimulatePixInResult | Exclude<SendOutcome, 'sent'>> {
    const { partner_id: partnerId, document } = command;
    const sentAt = new Date();
    const sender = completeSender(command);
    const payment: Omit<PixReceivedEvent, 'partner_id'> = {
      document,
      end_to_end_id: newEndToEndId(sender.sender_bank_code, sentAt),
      amount_cents: command.amount_cents,
      method: command.method ?? 'manual',
      ...(command.description !== undefined && { description: command.description }),
      ...sender,
      outcome: command.simulate_outcome ?? 'credited',
      sent_at: sentAt.toISOString(),
    };
    // A refusal writes nothing and emits nothing, so its transaction commits empty and wakes no relay.
    return this.unitOfWork.run(async (tx) => {
      const sent = await this.payments.send(tx, partnerId, payment, key);
      if (sent !== 'sent') return sent;
      tx.emit(outboxMessage(Topics.SpiPixReceived, { partner_id: partnerId, ...payment }));
      return { end_to_end_id: payment.end_to_end_id };
    });
  }
}

function refusal(code: 'user_not_found' | 'pix_key_not_registered', document: string): string {
  return code === 'user_not_found'
    ? `no user with document ${document}`
    : `user ${document} has no registered Pix key, so a Pix by key (method dict) cannot reach them; register a key or use another method`;
}

/** The request as the partner sent it (the sender before completion, defaults applied), never the key. */
function fingerprintOf(c: SimulatePixInCommand): string {
  return requestFingerprint([
    c.document,
    c.amount_cents,
    c.method ?? 'manual',
    c.description ?? null,
    c.sender_name ?? null,
    c.sender_tax_id ?? null,
    c.sender_account_number ?? null,
    c.sender_account_type ?? null,
    c.sender_bank_code ?? null,
    c.sender_branch_code ?? null,
    c.simulate_outcome ?? 'credited',
  ]);
}
