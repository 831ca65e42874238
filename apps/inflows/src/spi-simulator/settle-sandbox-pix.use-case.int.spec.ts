import { loadConfig } from '@partner/config';
import {
  IngestPixInflowCommand,
  PartnerId,
  PixInStateChangedEvent,
  PixReceivedEvent,
  SimulatePixInCommand,
  Topics,
} from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { eventPayloadOf, newCpf, newUuid, outboxEventsOf, selectCount, selectRow, selectRows, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { PartnerStatusRepository } from '../partner-statuses/partner-status.repository';
import { AccountRepository } from '../accounts/account.repository';
import { openAccount } from '../accounts/accounts.spec-support';
import { IngestPixInflowUseCase } from '../pix-inflows/ingest-pix-inflow.use-case';
import { PixInflowRepository } from '../pix-inflows/pix-inflow.repository';
import { UnmatchedPixInflowRepository } from '../pix-inflows/unmatched-pix-inflow.repository';
import { NotifyReceivedPixUseCase } from './notify-received-pix.use-case';
import { newEndToEndId } from './end-to-end-id';
import { notificationOf } from './sandbox-notification';
import { SettleSandboxPixUseCase } from './settle-sandbox-pix.use-case';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';
import { SpiPaymentRepository } from './spi-payment.repository';

// Integration: the sandbox's Pix, sent by the simulated network, recorded and settled through the Pix
// provider's ingestion, against the real inflows schema in PostgreSQL. Each test uses a partner of its own.
const STEP_MS = 1_000;
const config = loadConfig(InflowsConfig, { ...process.env, PIX_IN_STEP_DELAY_MS: String(STEP_MS) });
const db = new Database(config, DB_SCHEMA);
const payments = new SpiPaymentRepository(db);
const accounts = new AccountRepository(db);
/** Counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events. */
const relay = { wakes: 0, wake: () => void relay.wakes++ };
const unitOfWork = new UnitOfWork(db, relay);
const ingest = new IngestPixInflowUseCase(
  config,
  unitOfWork,
  new PixInflowRepository(db),
  new UnmatchedPixInflowRepository(db),
  accounts,
  new PartnerStatusRepository(db),
);
const simulate = new SimulatePixInUseCase(unitOfWork, payments);
const notify = new NotifyReceivedPixUseCase(config, payments, ingest);
const settle = new SettleSandboxPixUseCase(config, payments, ingest);

afterAll(() => db.close());

/** A sandbox Pix to a new user of the partner, sent by the simulated network: its announcement, as it waits in the outbox. */
async function sent(overrides: Partial<SimulatePixInCommand> = {}, partnerId: PartnerId = testPartnerId()): Promise<PixReceivedEvent> {
  const document = newCpf();
  await openAccount(db, config, partnerId, document);
  const reply = await simulate.execute({ partner_id: partnerId, document, amount_cents: 12_345, ...overrides });
  if (!reply.ok) throw new Error(`not sent: ${JSON.stringify(reply.error)}`);
  return announcementOf(reply.data.end_to_end_id);
}

/** The network's announcement of the payment, as it waits in the outbox. */
async function announcementOf(endToEndId: string): Promise<PixReceivedEvent> {
  const row = await selectRow<{ payload: unknown }>(db, 'SELECT payload FROM outbox_messages WHERE topic = $1 AND key = $2', [
    Topics.SpiPixReceived,
    endToEndId,
  ]);
  return eventPayloadOf(Topics.SpiPixReceived, row.payload);
}

/** The pix_in events waiting in the outbox for the partner, in commit order. */
async function events(partnerId: string): Promise<PixInStateChangedEvent[]> {
  const rows = await selectRows<{ topic: string; payload: unknown }>(
    db,
    'SELECT topic, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
    [Topics.PixInStateChanged],
  );
  return outboxEventsOf(Topics.PixInStateChanged, rows, partnerId);
}

const statesOf = async (partnerId: string) => (await events(partnerId)).map((e) => e.state);
/** The inflow recorded under the end-to-end id, every column. */
const inflowOf = (endToEndId: string) =>
  selectRow<{ status: string; receiver_key: string | null; updated_at: Date }>(db, 'SELECT * FROM pix_inflows WHERE end_to_end_id = $1', [
    endToEndId,
  ]);
const statusOf = async (payment: PixReceivedEvent) => (await inflowOf(payment.end_to_end_id)).status;
const later = (ms: number) => new Date(Date.now() + ms);

describe('NotifyReceivedPixUseCase: an announced sandbox Pix through the provider ingestion (PostgreSQL)', () => {
  it('records the inflow in processing with every field, and its processing event, in one go', async () => {
    const payment = await sent({ description: 'pizza' });

    expect(await notify.execute(payment)).toEqual({
      end_to_end_id: payment.end_to_end_id,
      status: 'processing',
      created: true,
      matched: true,
    });

    const account = await accounts.find(payment.partner_id, payment.document);
    const row = await inflowOf(payment.end_to_end_id);
    const { sender_name, sender_tax_id, sender_account_number, sender_account_type, sender_bank_code, sender_branch_code } = payment;
    expect(row).toMatchObject({
      receiver_branch: account?.branch,
      receiver_number: account?.number,
      receiver_type: 'TRAN',
      receiver_key: null,
      partner_id: payment.partner_id,
      document: payment.document,
      amount_cents: '12345',
      description: 'pizza',
      method: 'manual',
      sender_name,
      sender_tax_id,
      sender_account_number,
      sender_account_type,
      sender_bank_code,
      sender_branch_code,
      status: 'processing',
    });
    const [event, ...more] = await events(payment.partner_id);
    expect(more).toEqual([]);
    expect(validateContract(PixInStateChangedEvent, event)).toMatchObject({ ok: true });
    expect(event).toMatchObject({
      type: 'pix_in',
      state: 'processing',
      resource_id: payment.end_to_end_id,
      resource: { document: payment.document, status: 'processing' },
    });
  });

  it('is the same inflow the provider would record: its notification at processing is then a repeat', async () => {
    const payment = await sent();
    await notify.execute(payment);

    const logged = await payments.findSent(payment.end_to_end_id);
    if (!logged) throw new Error('payment not in the log');
    const providers: IngestPixInflowCommand = notificationOf(logged, config.OPERATOR_ISPB, 'processing');
    expect(await ingest.execute(providers)).toEqual({
      ok: true,
      data: { end_to_end_id: payment.end_to_end_id, status: 'processing', created: false, matched: true },
    });
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);
  });

  it('records an announcement delivered twice once, waking the relay once; one inflow under 20 concurrent deliveries', async () => {
    const payment = await sent();
    const before = relay.wakes;

    const results = await Promise.all(Array.from({ length: 20 }, () => notify.execute({ ...payment })));

    expect(results.filter((r) => r?.created)).toHaveLength(1);
    expect(results.every((r) => r?.status === 'processing')).toBe(true);
    expect(relay.wakes).toBe(before + 1);
    expect(await selectCount(db, 'SELECT count(*) FROM pix_inflows WHERE end_to_end_id = $1', [payment.end_to_end_id])).toBe(1);
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);
  });

  it('never lets an end-to-end id recorded for one partner be claimed by another', async () => {
    const payment = await sent();
    await notify.execute(payment);
    const other = testPartnerId();
    await openAccount(db, config, other, payment.document);

    expect(await notify.execute({ ...payment, partner_id: other })).toBeNull();

    const rows = await selectRows<{ partner_id: string }>(db, 'SELECT partner_id FROM pix_inflows WHERE end_to_end_id = $1', [
      payment.end_to_end_id,
    ]);
    expect(rows.map((r) => r.partner_id)).toEqual([payment.partner_id]);
  });
});

describe('SettleSandboxPixUseCase: the simulated settlement through the provider ingestion (PostgreSQL)', () => {
  it('moves processing -> approved -> success -> credited, one step per delay, one event per move; credits the BRL balance once', async () => {
    const payment = await sent();
    await notify.execute(payment);

    // Not yet due: nothing moves before the step delay.
    await settle.execute(later(STEP_MS / 2));
    expect(await statesOf(payment.partner_id)).toEqual(['processing']);

    await settle.execute(later(STEP_MS + 100));
    // The later steps may be due already in the same run, since the clock passed them; never beyond credited.
    expect(['approved', 'success', 'credited']).toContain(await statusOf(payment));
    await settle.execute(later(3 * STEP_MS));

    expect(await statusOf(payment)).toBe('credited');
    expect(await statesOf(payment.partner_id)).toEqual(['processing', 'approved', 'success', 'credited']);
    const all = await events(payment.partner_id);
    for (const event of all) expect(validateContract(PixInStateChangedEvent, event)).toMatchObject({ ok: true });
    expect(all[2].resource.status).toBe('success');
    const credited = await inflowOf(payment.end_to_end_id);
    expect(all[3].resource).toMatchObject({
      end_to_end_id: payment.end_to_end_id,
      status: 'credited',
      last_updated_at: Math.floor(credited.updated_at.getTime() / 1000),
    });
    await settle.execute(later(9 * STEP_MS));
    expect((await accounts.find(payment.partner_id, payment.document))?.availableBrlCents).toBe(12_345n);
  });

  it('sends a Pix by key to the key registered for the user, and names it in its notification', async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await openAccount(db, config, partnerId, document);
    await db.query(
      "INSERT INTO pix_key_replica (partner_id, key_id, document, key, state, occurred_at) VALUES ($1, $2, $3, $4, 'registered', now())",
      [partnerId, newUuid(), document, document],
    );
    const reply = await simulate.execute({ partner_id: partnerId, document, amount_cents: 500, method: 'dict' });
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
    const logged = await payments.findSent(reply.data.end_to_end_id);
    expect(logged?.receiver_key).toBe(document);
    await notify.execute(await announcementOf(reply.data.end_to_end_id));
    expect((await inflowOf(reply.data.end_to_end_id)).receiver_key).toBe(document);
  });

  it('wakes the outbox relay after a run that moved inflows, never after one that moved none', async () => {
    await notify.execute(await sent());
    const before = relay.wakes;

    // Nothing was recorded before 1970: nothing is due, so nothing commits an event.
    expect(await settle.execute(new Date(0))).toBe(0);
    expect(relay.wakes).toBe(before);
    expect(await settle.execute(later(3 * STEP_MS))).toBeGreaterThan(0);
    expect(relay.wakes).toBeGreaterThan(before);
  });

  it.each([
    ['denied', ['processing', 'denied']],
    ['failed', ['processing', 'approved', 'failed']],
  ] as const)('ends %s when the sandbox asked for it', async (outcome, states) => {
    const payment = await sent({ simulate_outcome: outcome });
    await notify.execute(payment);

    await settle.execute(later(3 * STEP_MS));
    await settle.execute(later(6 * STEP_MS));

    expect(await statusOf(payment)).toBe(outcome);
    expect(await statesOf(payment.partner_id)).toEqual(states);
  });

  it('makes each move once when several settlement workers run at the same time', async () => {
    const partnerId = testPartnerId();
    for (let i = 0; i < 5; i++) await notify.execute(await sent({}, partnerId));
    const due = later(3 * STEP_MS);

    await Promise.all([settle.execute(due), settle.execute(due), settle.execute(due)]);
    await Promise.all([settle.execute(due), settle.execute(due), settle.execute(due)]);

    const states = await statesOf(partnerId);
    expect(states.filter((s) => s === 'approved')).toHaveLength(5);
    expect(states.filter((s) => s === 'success')).toHaveLength(5);
    expect(states.filter((s) => s === 'credited')).toHaveLength(5);
    expect(states).toHaveLength(20);
  });

  it('is the first event of each inflow processing and the last one terminal, per inflow in order', async () => {
    const partnerId = testPartnerId();
    const outcomes = ['credited', 'denied', 'failed'] as const;
    const sentPayments: PixReceivedEvent[] = [];
    for (const outcome of outcomes) sentPayments.push(await sent({ simulate_outcome: outcome }, partnerId));
    for (const p of sentPayments) await notify.execute(p);

    await settle.execute(later(3 * STEP_MS));
    await settle.execute(later(6 * STEP_MS));

    const all = await events(partnerId);
    const byInflow = sentPayments.map((p) => all.filter((e) => e.resource_id === p.end_to_end_id).map((e) => e.state));
    expect(byInflow).toEqual([
      ['processing', 'approved', 'success', 'credited'],
      ['processing', 'denied'],
      ['processing', 'approved', 'failed'],
    ]);
  });

  it("never moves an inflow the Pix provider notified (it has no sandbox payment): it moves by the provider's notifications only", async () => {
    const payment = await sent();
    const logged = await payments.findSent(payment.end_to_end_id);
    if (!logged) throw new Error('payment not in the log');
    // The provider's own inflow to the same account: another end-to-end id, no spi_payments row.
    const providers = {
      ...notificationOf(logged, config.OPERATOR_ISPB, 'processing'),
      end_to_end_id: newEndToEndId(logged.sender_bank_code, new Date()),
    };
    expect(await ingest.execute(providers)).toMatchObject({ ok: true, data: { created: true } });

    await settle.execute(later(60 * STEP_MS));

    expect((await inflowOf(providers.end_to_end_id)).status).toBe('processing');
  });
});
