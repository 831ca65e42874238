import { Logger } from '@nestjs/common';
import { PixReceivedEvent } from '@partner/contracts';
import { testPartnerId } from '@partner/testing';
import { NotifyReceivedPixUseCase } from './notify-received-pix.use-case';
import { announcedPayment, InMemoryIngestion } from './provider-ingestion.spec-support';

// Unit: an announcement of the simulated network, through the provider's ingestion rules (in memory; the
// PostgreSQL path: settle-sandbox-pix.use-case.int.spec.ts).
const announced = (overrides: Partial<PixReceivedEvent> = {}) => announcedPayment({ outcome: 'denied', ...overrides });

describe('NotifyReceivedPixUseCase', () => {
  let ingestion: InMemoryIngestion;
  let notify: NotifyReceivedPixUseCase;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    ingestion = new InMemoryIngestion();
    notify = new NotifyReceivedPixUseCase(ingestion);
  });

  it('records the announced payment in processing, with the fields the provider would notify', async () => {
    const payment = announced();

    expect(await notify.execute(payment)).toEqual({ end_to_end_id: payment.end_to_end_id, status: 'processing', created: true });

    const { outcome: _outcome, sent_at: _sentAt, ...fields } = payment;
    expect(ingestion.inflows.get(payment.end_to_end_id)?.notification).toEqual({ ...fields, status: 'processing' });
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
  });

  it('takes a repeated announcement as a repeated notification: nothing more recorded', async () => {
    const payment = announced();
    await notify.execute(payment);

    expect(await notify.execute({ ...payment })).toEqual({ end_to_end_id: payment.end_to_end_id, status: 'processing', created: false });
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
  });

  it("answers null and records nothing for an end-to-end id recorded with other details (the network's error)", async () => {
    const payment = announced();
    await notify.execute(payment);

    expect(await notify.execute({ ...payment, amount_cents: 1 })).toBeNull();
    expect(await notify.execute({ ...payment, partner_id: testPartnerId() })).toBeNull();
    expect(ingestion.changes).toEqual([`${payment.end_to_end_id}:processing`]);
    expect(ingestion.inflows.get(payment.end_to_end_id)?.notification.amount_cents).toBe(9_900);
  });
});
