import { loadConfig } from '@partner/config';
import { PixInStateChangedEvent, PixReceivedEvent, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/kafka';
import { validateContract } from '@partner/validation';
import { newCpf, testPartnerId } from '@partner/testing';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaService } from '../prisma/prisma.service';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';
import { completeSender } from '../spi-simulator/sender-details';
import { AdvancePixInflowsUseCase } from './advance-pix-inflows.use-case';
import { toPixInflow } from './pix-in-event';
import { PixInflowRepository } from './pix-inflow.repository';
import { RecordPixInflowUseCase } from './record-pix-inflow.use-case';

// Integration: the real inflows schema in PostgreSQL. Each test uses a partner of its own.
const STEP_MS = 1_000;
const config = loadConfig(InflowsConfig, { ...process.env, PIX_IN_STEP_DELAY_MS: String(STEP_MS) });
const prisma = new PrismaService(config);
const inflows = new PixInflowRepository(prisma);
/** Counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events. */
const relay = { wakes: 0, wake: () => void relay.wakes++ };
const unitOfWork = new UnitOfWork(prisma.pool, relay);
const record = new RecordPixInflowUseCase(unitOfWork, inflows);
const advance = new AdvancePixInflowsUseCase(config, unitOfWork, inflows);

afterAll(() => prisma.$disconnect());

/** An announcement as the simulated network makes it. */
function announcement(overrides: Partial<PixReceivedEvent> = {}): PixReceivedEvent {
  const sender = completeSender({});
  const sentAt = new Date();
  return {
    partner_id: testPartnerId(),
    document: newCpf(),
    end_to_end_id: newEndToEndId(sender.sender_bank_code, sentAt),
    amount_cents: 12_345,
    method: 'manual',
    ...sender,
    outcome: 'credited',
    sent_at: sentAt.toISOString(),
    ...overrides,
  };
}

/** The pix_in events waiting in the outbox for the partner, in commit order. */
async function events(partnerId: string): Promise<PixInStateChangedEvent[]> {
  const rows = await prisma.outboxMessage.findMany({ where: { topic: Topics.PixInStateChanged }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.payload as unknown as PixInStateChangedEvent).filter((e) => e.partner_id === partnerId);
}

const statesOf = async (partnerId: string) => (await events(partnerId)).map((e) => e.state);
const later = (ms: number) => new Date(Date.now() + ms);

describe('RecordPixInflowUseCase (PostgreSQL)', () => {
  it('records the inflow in processing with every field, and its processing event, in one go', async () => {
    const payment = announcement({ description: 'pizza' });

    const inflow = await record.execute(payment);

    expect(inflow).toMatchObject({
      partnerId: payment.partner_id,
      document: payment.document,
      endToEndId: payment.end_to_end_id,
      amountCents: 12_345n,
      description: 'pizza',
      method: 'manual',
      senderName: payment.sender_name,
      senderTaxId: payment.sender_tax_id,
      senderAccountNumber: payment.sender_account_number,
      senderAccountType: payment.sender_account_type,
      senderBankCode: payment.sender_bank_code,
      senderBranchCode: payment.sender_branch_code,
      status: 'processing',
      outcome: 'credited',
    });
    const [event, ...more] = await events(payment.partner_id);
    expect(more).toEqual([]);
    expect(validateContract(PixInStateChangedEvent, event)).toMatchObject({ ok: true });
    expect(event).toMatchObject({ type: 'pix_in', state: 'processing', resource_id: payment.end_to_end_id, resource: { document: payment.document, status: 'processing' } });
  });

  it('records an announcement delivered twice once: one inflow, one processing event', async () => {
    const payment = announcement();

    const first = await record.execute(payment);
    const second = await record.execute({ ...payment });

    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(await prisma.pixInflow.count({ where: { endToEndId: payment.end_to_end_id } })).toBe(1);
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);
  });

  it('wakes the outbox relay once per recorded inflow, never for a repeated announcement', async () => {
    const payment = announcement();
    const before = relay.wakes;

    await record.execute(payment);
    expect(relay.wakes).toBe(before + 1);
    await record.execute({ ...payment });
    await record.execute({ ...payment, partner_id: testPartnerId() });
    expect(relay.wakes).toBe(before + 1);
  });

  it('never lets an end-to-end id recorded for one partner be claimed by another', async () => {
    const payment = announcement();
    await record.execute(payment);

    expect(await record.execute({ ...payment, partner_id: testPartnerId() })).toBeNull();

    const rows = await prisma.pixInflow.findMany({ where: { endToEndId: payment.end_to_end_id } });
    expect(rows.map((r) => r.partnerId)).toEqual([payment.partner_id]);
  });

  it('records once under 20 concurrent deliveries of the same announcement', async () => {
    const payment = announcement();

    const results = await Promise.all(Array.from({ length: 20 }, () => record.execute({ ...payment })));

    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await prisma.pixInflow.count({ where: { endToEndId: payment.end_to_end_id } })).toBe(1);
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);
  });
});

describe('AdvancePixInflowsUseCase: the simulated settlement (PostgreSQL)', () => {
  it('moves processing -> approved -> success -> credited, one step per delay, one event per move', async () => {
    const payment = announcement();
    await record.execute(payment);

    // Not yet due: nothing moves before the step delay.
    await advance.execute(later(STEP_MS / 2));
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);

    await advance.execute(later(STEP_MS + 100));
    const approved = await inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id);
    // The later steps may be due already in the same run, since the clock passed them; never beyond credited.
    expect(['approved', 'success', 'credited']).toContain(approved?.status);
    await advance.execute(later(3 * STEP_MS));

    const credited = await inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id);
    if (!credited) throw new Error('the inflow is gone');
    expect(credited.status).toBe('credited');
    expect(await statesOf(payment.partner_id)).toEqual(['processing', 'approved', 'success', 'credited']);
    const all = await events(payment.partner_id);
    for (const event of all) expect(validateContract(PixInStateChangedEvent, event)).toMatchObject({ ok: true });
    expect(all[2].resource.status).toBe('success');
    const last = all[3];
    expect(last.resource).toEqual({ ...toPixInflow(credited), document: payment.document });
  });

  it('wakes the outbox relay after a run that moved inflows, never after one that moved none', async () => {
    await record.execute(announcement());
    const before = relay.wakes;

    // Nothing was recorded before 1970: nothing is due, so nothing commits an event.
    expect(await advance.execute(new Date(0))).toBe(0);
    expect(relay.wakes).toBe(before);
    expect(await advance.execute(later(3 * STEP_MS))).toBeGreaterThan(0);
    expect(relay.wakes).toBeGreaterThan(before);
  });

  it('denies from processing when the sandbox asked for denied', async () => {
    const payment = announcement({ outcome: 'denied' });
    await record.execute(payment);

    await advance.execute(later(3 * STEP_MS));
    await advance.execute(later(6 * STEP_MS));

    expect((await inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id))?.status).toBe('denied');
    expect(await statesOf(payment.partner_id)).toEqual(['processing', 'denied']);
  });

  it('fails after approval when the sandbox asked for failed', async () => {
    const payment = announcement({ outcome: 'failed' });
    await record.execute(payment);

    await advance.execute(later(3 * STEP_MS));
    await advance.execute(later(6 * STEP_MS));

    expect((await inflows.findByEndToEndId(payment.partner_id, payment.end_to_end_id))?.status).toBe('failed');
    expect(await statesOf(payment.partner_id)).toEqual(['processing', 'approved', 'failed']);
  });

  it('makes each move once when several settlement workers run at the same time', async () => {
    const partnerId = testPartnerId();
    const payments = Array.from({ length: 5 }, () => announcement({ partner_id: partnerId }));
    for (const p of payments) await record.execute(p);
    const due = later(3 * STEP_MS);

    await Promise.all([advance.execute(due), advance.execute(due), advance.execute(due)]);
    await Promise.all([advance.execute(due), advance.execute(due), advance.execute(due)]);

    const states = await statesOf(partnerId);
    expect(states.filter((s) => s === 'approved')).toHaveLength(5);
    expect(states.filter((s) => s === 'success')).toHaveLength(5);
    expect(states.filter((s) => s === 'credited')).toHaveLength(5);
    expect(states).toHaveLength(20);
  });

  it('is the first event of each inflow processing and the last one terminal, per inflow in order', async () => {
    const partnerId = testPartnerId();
    const outcomes = ['credited', 'denied', 'failed'] as const;
    const payments = outcomes.map((outcome) => announcement({ partner_id: partnerId, outcome }));
    for (const p of payments) await record.execute(p);

    await advance.execute(later(3 * STEP_MS));
    await advance.execute(later(6 * STEP_MS));

    const all = await events(partnerId);
    const byInflow = payments.map((p) => all.filter((e) => e.resource_id === p.end_to_end_id).map((e) => e.state));
    expect(byInflow).toEqual([
      ['processing', 'approved', 'success', 'credited'],
      ['processing', 'denied'],
      ['processing', 'approved', 'failed'],
    ]);
  });
});
