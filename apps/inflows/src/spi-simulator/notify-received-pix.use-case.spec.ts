import { Logger } from '@nestjs/common';
import { PixReceivedEvent } from '@partner/contracts';
import { testPartnerId } from '@partner/testing';
import { NotifyReceivedPixUseCase } from './notify-received-pix.use-case';
import { announcedPayment, InMemoryIngestion, sandboxPaymentOf, SPEC_ISPB } from './provider-ingestion.spec-support';
import { SandboxPayment } from './sandbox-notification';

// Unit: an announcement of the simulated network, through the provider's ingestion rules (in memory; the
// PostgreSQL path: settle-sandbox-pix.use-case.int.spec.ts).
const announced = (overrides: Partial<PixReceivedEvent> = {}) => announcedPayment({ outcome: 'denied', method: 'dict', ...overrides });

describe('NotifyReceivedPixUseCase', () => {
  let ingestion: InMemoryIngestion;
  let log: Map<string, SandboxPayment>;
  let notify: NotifyReceivedPixUseCase;

  /** The payment as the network sent it (its log) and announced it. */
  const sent = (payment: PixReceivedEvent): PixReceivedEvent => {
    log.set(payment.end_to_end_id, sandboxPaymentOf(payment));
    return payment;
  };

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    ingestion = new InMemoryIngestion();
    log = new Map();
    notify = new NotifyReceivedPixUseCase({ OPERATOR_ISPB: SPEC_ISPB }, { findSent: async (e2e) => log.get(e2e) ?? null }, ingestion);
  });

  it('records the announced payment in processing, naming the account and key the network paid, never the partner or user', async () => {
    const payment = sent(announced());

    expect(await notify.execute(payment)).toEqual({
      end_to_end_id: payment.end_to_end_id,
      status: 'processing',
      created: true,
      matched: true,
    });

    const { outcome: _outcome, sent_at: _sentAt, partner_id: _partner, document, ...fields } = payment;
    const { receiver } = log.get(payment.end_to_end_id) ?? {};
    expect(ingestion.inflows.get(payment.end_to_end_id)?.notification).toEqual({
      ...fields,
      receiver_account: { ispb: SPEC_ISPB, ...receiver },
      receiver_key: document,
      status: 'processing',
    });
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
  });

  it('takes a repeated announcement as a repeated notification: nothing more recorded', async () => {
    const payment = sent(announced());
    await notify.execute(payment);

    expect(await notify.execute({ ...payment })).toEqual({
      end_to_end_id: payment.end_to_end_id,
      status: 'processing',
      created: false,
      matched: true,
    });
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
  });

  it("answers null and records nothing for an announcement its log does not hold as announced, or one recorded with other details (the network's error)", async () => {
    const payment = sent(announced());
    await notify.execute(payment);

    expect(await notify.execute({ ...payment, partner_id: testPartnerId() })).toBeNull();
    expect(await notify.execute(announced())).toBeNull();
    const changed = sent({ ...payment, amount_cents: 1 });
    expect(await notify.execute(changed)).toBeNull();
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
    expect(ingestion.inflows.get(payment.end_to_end_id)?.notification.amount_cents).toBe(9_900);
  });
});
