import { loadConfig } from '@partner/config';
import { END_TO_END_ID_PATTERN, PixKeyState, PixReceivedEvent, SimulatePixInCommand, Topics, PartnerId } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { eventPayloadOf, newCpf, newUuid, pixKeyStateChanged, selectCount, selectRow, selectRows, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { ApplyPixKeyEventUseCase } from '../pix-key-replica/apply-pix-key-event.use-case';
import { PixKeyReplicaRepository } from '../pix-key-replica/pix-key-replica.repository';
import { openAccount } from '../accounts/accounts.spec-support';
import { utcMinute } from './end-to-end-id';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';
import { SpiPaymentRepository } from './spi-payment.repository';

// Integration: the simulated network against the real inflows schema in PostgreSQL. The relay is not
// running: what the network announces is read from the outbox, where it waits for the relay.
const config = loadConfig(InflowsConfig);
const db = new Database(config, DB_SCHEMA);
const replica = new PixKeyReplicaRepository(db);
const applyKeyEvent = new ApplyPixKeyEventUseCase(replica);
let wakes = 0;
const relay = { wake: () => void wakes++ };
const simulate = new SimulatePixInUseCase(new UnitOfWork(db, relay), new SpiPaymentRepository(db));

afterAll(() => db.close());

async function newUser() {
  const partnerId = testPartnerId();
  const document = newCpf();
  await openAccount(db, config, partnerId, document);
  return { partnerId, document };
}

const command = (partnerId: PartnerId, document: string, overrides: Partial<SimulatePixInCommand> = {}): SimulatePixInCommand => ({
  partner_id: partnerId,
  document,
  amount_cents: 15_000,
  ...overrides,
});

/** What the network announced for the partner, in order. */
async function announced(partnerId: string): Promise<Array<{ topic: string; key: string; payload: PixReceivedEvent }>> {
  const rows = await selectRows<{ topic: string; key: string; payload: unknown }>(
    db,
    'SELECT topic, key, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
    [Topics.SpiPixReceived],
  );
  return rows
    .map((r) => ({ topic: r.topic, key: r.key, payload: eventPayloadOf(Topics.SpiPixReceived, r.payload) }))
    .filter((r) => r.payload.partner_id === partnerId);
}

async function keyEvent(partnerId: PartnerId, document: string, keyId: string, state: PixKeyState) {
  await applyKeyEvent.execute(pixKeyStateChanged(partnerId, { document, keyId, state }));
}

describe('SimulatePixInUseCase: the simulated Pix network (PostgreSQL)', () => {
  it('logs the payment and announces it on the network topic in one go, with a valid, complete sender', async () => {
    const { partnerId, document } = await newUser();
    const wakesBefore = wakes;

    const reply = await simulate.execute(command(partnerId, document));

    expect(reply).toEqual({ ok: true, data: { end_to_end_id: expect.stringMatching(END_TO_END_ID_PATTERN) } });
    const e2e = reply.ok ? reply.data.end_to_end_id : '';
    const [message, ...more] = await announced(partnerId);
    expect(more).toEqual([]);
    expect(message.key).toBe(e2e);
    expect(validateContract(PixReceivedEvent, message.payload)).toMatchObject({ ok: true });
    const event = message.payload;
    expect(event).toMatchObject({
      partner_id: partnerId,
      document,
      end_to_end_id: e2e,
      amount_cents: 15_000,
      method: 'manual',
      outcome: 'credited',
    });
    expect(event).not.toHaveProperty('description');
    // The id names the payer's institution and the UTC minute the payment was sent.
    expect(e2e.slice(1, 9)).toBe(event.sender_bank_code);
    expect(e2e.slice(9, 21)).toBe(utcMinute(new Date(event.sent_at)));
    const logged = await selectRow(db, 'SELECT * FROM spi_payments WHERE end_to_end_id = $1', [e2e]);
    expect(logged).toMatchObject({
      partner_id: partnerId,
      document,
      amount_cents: '15000',
      sender_tax_id: event.sender_tax_id,
      outcome: 'credited',
    });
    expect(wakes).toBe(wakesBefore + 1);
  });

  it('announces the sender fields, description and outcome the caller gave, unchanged', async () => {
    const { partnerId, document } = await newUser();
    const given = {
      description: 'aluguel de novembro',
      sender_name: 'Padaria Pão Quente Ltda',
      sender_tax_id: '11222333000181',
      sender_account_number: '98765',
      sender_account_type: 'checking' as const,
      sender_bank_code: '60746948',
      sender_branch_code: '1234',
      method: 'static_qr_code' as const,
      simulate_outcome: 'failed' as const,
    };

    const reply = await simulate.execute(command(partnerId, document, given));

    expect(reply.ok).toBe(true);
    const [{ payload }] = await announced(partnerId);
    const { simulate_outcome, ...fields } = given;
    expect(payload).toMatchObject({ ...fields, outcome: simulate_outcome });
    expect(payload.end_to_end_id.slice(1, 9)).toBe('60746948');
  });

  it("answers user_not_found for an unknown CPF and for another partner's user, and announces nothing", async () => {
    const { partnerId, document } = await newUser();
    const stranger = testPartnerId();

    expect(await simulate.execute(command(partnerId, newCpf()))).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await simulate.execute(command(stranger, document))).toMatchObject({ ok: false, error: { code: 'user_not_found' } });

    expect(await announced(partnerId)).toEqual([]);
    expect(await announced(stranger)).toEqual([]);
    expect(await selectCount(db, 'SELECT count(*) FROM spi_payments WHERE partner_id = ANY($1)', [[partnerId, stranger]])).toBe(0);
  });

  describe('with an idempotency key', () => {
    it('a retry of the same request answers the same payment and sends nothing more; another request with the key is refused', async () => {
      const { partnerId, document } = await newUser();
      const idempotency_key = newUuid();
      const first = await simulate.execute(command(partnerId, document, { idempotency_key }));
      const again = await simulate.execute(command(partnerId, document, { idempotency_key }));
      expect(first.ok).toBe(true);
      expect(again).toEqual(first);
      expect(await simulate.execute(command(partnerId, document, { idempotency_key, amount_cents: 1 }))).toMatchObject({
        ok: false,
        error: { code: 'idempotency_key_reused', field: 'idempotency_key' },
      });
      expect(await announced(partnerId)).toHaveLength(1);
      expect(await selectCount(db, 'SELECT count(*) FROM spi_payments WHERE partner_id = $1', [partnerId])).toBe(1);
      // Scoped to the partner: another partner's request with the same key is its own.
      const other = await newUser();
      const theirs = await simulate.execute(command(other.partnerId, other.document, { idempotency_key }));
      expect(theirs.ok && first.ok && theirs.data.end_to_end_id !== first.data.end_to_end_id).toBe(true);
    });

    it('concurrent duplicates send one payment, and every one of them answers it', async () => {
      const { partnerId, document } = await newUser();
      const idempotency_key = newUuid();
      const replies = await Promise.all(
        Array.from({ length: 8 }, () => simulate.execute(command(partnerId, document, { idempotency_key }))),
      );
      const ids = new Set(replies.map((r) => (r.ok ? r.data.end_to_end_id : r.error.code)));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(END_TO_END_ID_PATTERN);
      expect(await announced(partnerId)).toHaveLength(1);
    });

    it('a refused request binds nothing: the key sends the corrected request', async () => {
      const { partnerId, document } = await newUser();
      const idempotency_key = newUuid();
      expect(await simulate.execute(command(partnerId, document, { idempotency_key, method: 'dict' }))).toMatchObject({
        ok: false,
        error: { code: 'pix_key_not_registered' },
      });
      expect((await simulate.execute(command(partnerId, document, { idempotency_key }))).ok).toBe(true);
    });
  });

  it('wakes the outbox relay for a payment it announced, never for a refused one', async () => {
    const { partnerId, document } = await newUser();
    const wakesBefore = wakes;

    await simulate.execute(command(partnerId, newCpf()));
    await simulate.execute(command(partnerId, document, { method: 'dict' }));
    expect(wakes).toBe(wakesBefore);
    expect((await simulate.execute(command(partnerId, document))).ok).toBe(true);
    expect(wakes).toBe(wakesBefore + 1);
  });

  it('sends a Pix by key (dict) only while the user has a registered key, as the replica knows it', async () => {
    const { partnerId, document } = await newUser();
    const byKey = () => simulate.execute(command(partnerId, document, { method: 'dict' }));
    const keyId = newUuid();
    const outcomes: string[] = [];
    const record = async () => {
      const reply = await byKey();
      outcomes.push(reply.ok ? 'sent' : reply.error.code);
    };

    await record(); // no key at all
    await keyEvent(partnerId, document, keyId, 'pending');
    await record();
    await keyEvent(partnerId, document, keyId, 'registered');
    await record();
    await keyEvent(partnerId, document, keyId, 'deleting');
    await record();
    await keyEvent(partnerId, document, keyId, 'canceled');
    await record();

    expect(outcomes).toEqual([
      'pix_key_not_registered',
      'pix_key_not_registered',
      'sent',
      'pix_key_not_registered',
      'pix_key_not_registered',
    ]);
    const sent = await announced(partnerId);
    expect(sent.map((m) => m.payload.method)).toEqual(['dict']);
    // Other methods reach the account directly, key or no key.
    expect((await simulate.execute(command(partnerId, document, { method: 'manual' }))).ok).toBe(true);
  });

  it('explains the dict refusal', async () => {
    const { partnerId, document } = await newUser();
    const reply = await simulate.execute(command(partnerId, document, { method: 'dict' }));
    expect(reply).toEqual({
      ok: false,
      error: { code: 'pix_key_not_registered', message: expect.stringContaining('no registered Pix key') },
    });
  });
});
