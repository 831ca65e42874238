import { fail, IngestPixInflowCommand, ok, PixInNotifiedStatus, PixReceivedEvent, RequestReply, Topics } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { newCpf, testPartnerId } from '@partner/testing';
import { detailsOf, type IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { transitionOf } from '../pix-inflows/pix-in-transitions';
import { newEndToEndId } from './end-to-end-id';
import { SandboxPayment } from './sandbox-notification';
import { completeSender } from './sender-details';

type Reply = RequestReply<typeof Topics.InflowsIngest>;

/** The operator's ISPB in the unit specs. */
export const SPEC_ISPB = '99999999';

/**
 * The Pix provider's ingestion (IngestPixInflowUseCase) in memory, for the unit specs of its sandbox
 * callers: the same answers by the same transition table (transitionOf), and a notification the provider's
 * route would refuse (its contract, unknown fields included) fails the spec. The PostgreSQL one is
 * exercised by the *.int.spec.ts beside them.
 */
export class InMemoryIngestion implements Pick<IngestPixInflowUseCase, 'execute'> {
  readonly inflows = new Map<string, { notification: IngestPixInflowCommand; updatedAt: Date }>();
  /** Every status an inflow reached, `<end_to_end_id>:<status>`, in order: the pix_in events the real one emits. */
  readonly changes: string[] = [];

  async execute(n: IngestPixInflowCommand): Promise<Reply> {
    const valid = validateContract(IngestPixInflowCommand, n);
    if (!valid.ok) throw new Error(`POST /provider/v1/pix/inflows would refuse ${JSON.stringify(n)}: ${valid.error.message}`);
    const known = this.inflows.get(n.end_to_end_id);
    if (!known) return this.reach(n, n.status, true);
    if (detailsOf(known.notification) !== detailsOf(n))
      return fail('end_to_end_id_conflict', `end_to_end_id ${n.end_to_end_id} is recorded with other details`, 'end_to_end_id');
    const from = known.notification.status;
    const transition = transitionOf(from, n.status);
    if (transition === 'refuse') return fail('invalid_transition', `a pix inflow cannot move from ${from} to ${n.status}`, 'status');
    if (transition === 'keep') return ok({ end_to_end_id: n.end_to_end_id, status: from, created: false, matched: true });
    return this.reach(n, n.status, false);
  }

  statusOf(endToEndId: string): PixInNotifiedStatus | undefined {
    return this.inflows.get(endToEndId)?.notification.status;
  }

  private reach(n: IngestPixInflowCommand, status: PixInNotifiedStatus, created: boolean): Reply {
    this.inflows.set(n.end_to_end_id, { notification: { ...n, status }, updatedAt: new Date() });
    this.changes.push(`${n.end_to_end_id}:${status}`);
    return ok({ end_to_end_id: n.end_to_end_id, status, created, matched: true });
  }
}

let accountNumber = 200_000_000;

/** An announced payment as the network's log holds it: with the receiving user's account and, for a Pix by key, the key (the CPF). */
export function sandboxPaymentOf({ sent_at: _sentAt, ...announced }: PixReceivedEvent): SandboxPayment {
  return {
    ...announced,
    receiver: { branch: '0001', number: String(accountNumber++), type: 'TRAN' },
    ...(announced.method === 'dict' && { receiver_key: announced.document }),
  };
}

/** An announcement as the simulated network makes it, to a new partner's new user. */
export function announcedPayment(overrides: Partial<PixReceivedEvent> = {}): PixReceivedEvent {
  const sender = completeSender({});
  const sentAt = new Date();
  return {
    partner_id: testPartnerId(),
    document: newCpf(),
    end_to_end_id: newEndToEndId(sender.sender_bank_code, sentAt),
    amount_cents: 9_900,
    method: 'manual',
    ...sender,
    outcome: 'credited',
    sent_at: sentAt.toISOString(),
    ...overrides,
  };
}
