import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import {
  BUSINESS_CUSTOMER_EXAMPLE,
  BusinessCustomerRegisteredEvent,
  CreateBusinessCustomerCommand,
  PartnerId,
  Topics,
} from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { newUuid, outboxEventsOf, registeredExampleCustomer, selectCount, selectRows, testPartnerId } from '@partner/testing';
import { validateContract } from '@partner/validation';
import { ConnectionPool, Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { CustomersConfig } from '../config/customers.config';
import { OwnerNotificationRepository } from '../notifications/owner-notification.repository';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';

// Integration: the real customers schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(CustomersConfig);
const db = new Database(config, DB_SCHEMA);
const customers = new CustomerRepository(db);
const notifications = new OwnerNotificationRepository(db);
/** Counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events. */
const relay = { wakes: 0, wake: () => void relay.wakes++ };
const create = new CreateBusinessCustomerUseCase(new UnitOfWork(db, relay), customers, notifications, config);

/** A command as the handler receives it: validated by the contract class, so nested values are instances. */
function command(partnerId: PartnerId, overrides: Record<string, unknown> = {}): CreateBusinessCustomerCommand {
  const checked = validateContract(CreateBusinessCustomerCommand, {
    ...structuredClone(BUSINESS_CUSTOMER_EXAMPLE),
    cnpj: generateCnpj({ version: 2 }),
    partner_id: partnerId,
    ...overrides,
  });
  if (!checked.ok) throw new Error(`invalid test command: ${checked.error.message}`);
  return checked.value;
}

async function eventsOf(partnerId: string): Promise<BusinessCustomerRegisteredEvent[]> {
  const rows = await selectRows<{ topic: string; payload: unknown }>(db, 'SELECT topic, payload FROM outbox_messages ORDER BY id');
  return outboxEventsOf(Topics.BusinessCustomerRegistered, rows, partnerId);
}

const customerCount = (partnerId: string) => selectCount(db, 'SELECT count(*) FROM customers WHERE partner_id = $1', [partnerId]);
const notificationCount = (partnerId: string) =>
  selectCount(db, 'SELECT count(*) FROM owner_notifications WHERE partner_id = $1', [partnerId]);

/** The service's database, except that the outbox INSERT the unit of work sends before COMMIT fails. */
const failingOutboxPool: ConnectionPool = {
  // Only transactions are patched; a one-statement command (runCommand) is not what this use case runs.
  async connect() {
    const client = await db.connect();
    const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<unknown>;
    const release = client.release.bind(client);
    // Patched for this checkout only: the client goes back to the pool as it came.
    Object.assign(client, {
      query: (config: { name?: string }, values?: unknown) =>
        config.name === 'outbox_insert' ? Promise.reject(new Error('outbox unavailable')) : query(config, values),
      release: (error?: Error | boolean) => {
        delete (client as { query?: unknown }).query;
        release(error);
      },
    });
    return client;
  },
};

const recordCount = (partnerId: string) => selectCount(db, 'SELECT count(*) FROM idempotency_records WHERE partner_id = $1', [partnerId]);

/** The same JSON with every object's keys in reverse order. */
function reordered<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reordered) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, v]) => [key, reordered(v)]),
  ) as T;
}

const idOf = (reply: Awaited<ReturnType<typeof create.execute>>) => (reply.ok ? reply.data.id : `refused: ${reply.error.code}`);

afterAll(() => db.close());

describe('CreateBusinessCustomerUseCase (PostgreSQL)', () => {
  it('stores the customer, its owner notifications and its registered event together', async () => {
    const partnerId = testPartnerId();
    const cmd = command(partnerId);
    const reply = await create.execute(cmd);
    expect(reply).toEqual({
      ok: true,
      data: { id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), replayed: false },
    });
    const id = idOf(reply);

    const stored = await customers.findByCnpj(partnerId, cmd.cnpj);
    expect(stored).toMatchObject({ id, partnerId, cnpj: cmd.cnpj, legalName: 'Acme Pagamentos Ltda', externalId: 'acme-001' });
    const { partner_id: _partner, ...request } = cmd;
    expect(stored?.body).toEqual(JSON.parse(JSON.stringify(request)));

    // config: SMS on, e-mail off -> one SMS per owner, to the owner's phone.
    expect((await notifications.findByCustomer(partnerId, id)).map((n) => [n.ownerIndex, n.channel, n.destination, n.status])).toEqual([
      [0, 'sms', '+5511987654321', 'pending'],
      [1, 'sms', '+5521998765432', 'pending'],
    ]);

    const [event, ...more] = await eventsOf(partnerId);
    expect(more).toEqual([]);
    expect(validateContract(BusinessCustomerRegisteredEvent, event).ok).toBe(true);
    expect(event).toMatchObject({
      type: 'business_customer',
      state: 'registered',
      resource_id: id,
      occurred_at: stored?.createdAt.toISOString(),
    });
    expect(event.resource).toEqual({
      ...registeredExampleCustomer(id, cmd.cnpj),
      metadata: { external_id: 'acme-001' },
      created_at: Math.floor((stored?.createdAt.getTime() ?? 0) / 1000),
    });
  });

  it('wakes the outbox relay once per registration, never for a refused one', async () => {
    const partnerId = testPartnerId();
    const cmd = command(partnerId);
    const before = relay.wakes;
    await create.execute(cmd);
    expect(relay.wakes).toBe(before + 1);
    expect(await create.execute(command(partnerId, { cnpj: cmd.cnpj }))).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(relay.wakes).toBe(before + 1);
  });

  it('records one notification per owner per channel asked for, and none without config', async () => {
    const partnerId = testPartnerId();
    const both = idOf(await create.execute(command(partnerId, { config: { auto_send_owner_sms: true, auto_send_owner_email: true } })));
    expect((await notifications.findByCustomer(partnerId, both)).map((n) => [n.ownerIndex, n.channel, n.destination])).toEqual([
      [0, 'sms', '+5511987654321'],
      [0, 'email', 'maria@acme.com.br'],
      [1, 'sms', '+5521998765432'],
      [1, 'email', 'joao@acme.com.br'],
    ]);
    const none = idOf(await create.execute(command(partnerId, { config: undefined, metadata: undefined, trade_name: undefined })));
    expect(await notifications.findByCustomer(partnerId, none)).toEqual([]);
    const [, second] = await eventsOf(partnerId);
    expect(second.resource).toMatchObject({
      id: none,
      trade_name: null,
      metadata: {},
      config: { auto_send_owner_sms: false, auto_send_owner_email: false },
    });
  });

  it('keeps free-form metadata as given and stores its external_id', async () => {
    const partnerId = testPartnerId();
    const metadata = { external_id: 'crm-42', tier: 'gold', tags: ['a', 'b'], nested: { n: 1, none: null } };
    const cmd = command(partnerId, { metadata });
    const id = idOf(await create.execute(cmd));
    expect((await customers.findByCnpj(partnerId, cmd.cnpj))?.externalId).toBe('crm-42');
    expect((await eventsOf(partnerId))[0].resource).toMatchObject({ id, metadata });
  });

  it('refuses the same CNPJ twice for one partner with already_exists, writing nothing', async () => {
    const partnerId = testPartnerId();
    const first = command(partnerId);
    const id = idOf(await create.execute(first));
    const again = await create.execute(command(partnerId, { cnpj: first.cnpj, legal_name: 'Another Name Ltda' }));
    expect(again).toEqual({
      ok: false,
      error: { code: 'already_exists', field: 'cnpj', message: `a business customer with CNPJ ${first.cnpj} is already registered`, id },
    });
    expect(await customerCount(partnerId)).toBe(1);
    expect((await customers.findByCnpj(partnerId, first.cnpj))?.legalName).toBe('Acme Pagamentos Ltda');
    expect(await notificationCount(partnerId)).toBe(2);
    expect((await eventsOf(partnerId)).map((e) => e.resource_id)).toEqual([id]);
  });

  it('lets another partner register the same CNPJ', async () => {
    const [a, b] = [testPartnerId(), testPartnerId()];
    const cmd = command(a);
    const idA = idOf(await create.execute(cmd));
    const idB = idOf(await create.execute({ ...cmd, partner_id: b }));
    expect(idB).not.toBe(idA);
    expect(idB).toMatch(/^[0-9a-f-]{36}$/);
    expect((await customers.findByCnpj(b, cmd.cnpj))?.id).toBe(idB);
    expect((await eventsOf(b)).map((e) => e.resource_id)).toEqual([idB]);
  });

  it('registers exactly one customer out of concurrent duplicates', async () => {
    const partnerId = testPartnerId();
    const cmd = command(partnerId);
    const replies = await Promise.all(Array.from({ length: 10 }, () => create.execute(cmd)));
    expect(replies.filter((r) => r.ok)).toHaveLength(1);
    expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(Array(9).fill('already_exists'));
    expect(await customerCount(partnerId)).toBe(1);
    expect(await notificationCount(partnerId)).toBe(2);
    expect(await eventsOf(partnerId)).toHaveLength(1);
  });

  it('leaves nothing behind when the event cannot be written: customer, notifications and event are one transaction', async () => {
    const partnerId = testPartnerId();
    const broken = new CreateBusinessCustomerUseCase(new UnitOfWork(failingOutboxPool, relay), customers, notifications, config);
    const cmd = command(partnerId);
    await expect(broken.execute(cmd)).rejects.toThrow('outbox unavailable');
    expect(await customerCount(partnerId)).toBe(0);
    expect(await notificationCount(partnerId)).toBe(0);
    // The CNPJ is free again: the failed attempt claimed nothing.
    expect((await create.execute(cmd)).ok).toBe(true);
  });

  describe('with an idempotency key', () => {
    it('replays the first answer to the same request under the same key (fields in any order): same id, replayed, nothing new', async () => {
      const partnerId = testPartnerId();
      const cmd = command(partnerId, { idempotency_key: `key-${newUuid()}` });
      const first = await create.execute(cmd);
      expect(first).toEqual({ ok: true, data: { id: expect.any(String), replayed: false } });
      const wakes = relay.wakes;

      for (const again of [cmd, reordered(cmd)]) {
        expect(await create.execute(again)).toEqual({ ok: true, data: { id: idOf(first), replayed: true } });
      }
      expect(relay.wakes).toBe(wakes);
      expect(await customerCount(partnerId)).toBe(1);
      expect(await notificationCount(partnerId)).toBe(2);
      expect(await recordCount(partnerId)).toBe(1);
      expect((await eventsOf(partnerId)).map((e) => e.resource_id)).toEqual([idOf(first)]);
    });

    it('refuses another request under a used key with idempotency_key_reused, writing nothing', async () => {
      const partnerId = testPartnerId();
      const key = `key-${newUuid()}`;
      const id = idOf(await create.execute(command(partnerId, { idempotency_key: key })));
      // Another CNPJ; and the same CNPJ with another name: both are other requests.
      for (const other of [
        command(partnerId, { idempotency_key: key }),
        command(partnerId, { idempotency_key: key, legal_name: 'Outra Ltda' }),
      ]) {
        expect(await create.execute(other)).toEqual({
          ok: false,
          error: {
            code: 'idempotency_key_reused',
            field: 'idempotency_key',
            message: 'idempotency_key was already used with a different registration',
          },
        });
      }
      expect(await customerCount(partnerId)).toBe(1);
      expect((await eventsOf(partnerId)).map((e) => e.resource_id)).toEqual([id]);
    });

    it("answers already_exists naming the partner's customer that holds the CNPJ, whatever the key, and binds no key", async () => {
      const partnerId = testPartnerId();
      const first = command(partnerId);
      const id = idOf(await create.execute(first));
      const key = `key-${newUuid()}`;
      const refused = await create.execute({ ...first, idempotency_key: key });
      expect(refused).toEqual({
        ok: false,
        error: { code: 'already_exists', field: 'cnpj', message: `a business customer with CNPJ ${first.cnpj} is already registered`, id },
      });
      expect(await recordCount(partnerId)).toBe(0);
      // The key is still free: a corrected request (another CNPJ) registers under it, then replays.
      const corrected = command(partnerId, { idempotency_key: key });
      const registered = await create.execute(corrected);
      expect(registered).toEqual({ ok: true, data: { id: expect.any(String), replayed: false } });
      expect(idOf(registered)).not.toBe(id);
      expect(await create.execute(corrected)).toEqual({ ok: true, data: { id: idOf(registered), replayed: true } });
      expect(await customerCount(partnerId)).toBe(2);
    });

    it('registers one customer out of concurrent duplicates under one key; the others wait for it and replay it', async () => {
      const partnerId = testPartnerId();
      const cmd = command(partnerId, { idempotency_key: newUuid() });
      const replies = await Promise.all(Array.from({ length: 10 }, () => create.execute(cmd)));
      const ids = new Set(replies.map(idOf));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(replies.map((r) => r.ok && r.data.replayed).sort()).toEqual([false, ...Array(9).fill(true)]);
      expect(await customerCount(partnerId)).toBe(1);
      expect(await notificationCount(partnerId)).toBe(2);
      expect(await eventsOf(partnerId)).toHaveLength(1);
    });

    it('keeps keys apart per partner: another partner may use the same key', async () => {
      const [a, b] = [testPartnerId(), testPartnerId()];
      const key = `key-${newUuid()}`;
      const idA = idOf(await create.execute(command(a, { idempotency_key: key })));
      const replyB = await create.execute(command(b, { idempotency_key: key }));
      expect(replyB).toEqual({ ok: true, data: { id: expect.any(String), replayed: false } });
      expect(idOf(replyB)).not.toBe(idA);
    });

    it('leaves the key free when the registration fails: its claim is part of the transaction', async () => {
      const partnerId = testPartnerId();
      const broken = new CreateBusinessCustomerUseCase(new UnitOfWork(failingOutboxPool, relay), customers, notifications, config);
      const cmd = command(partnerId, { idempotency_key: newUuid() });
      await expect(broken.execute(cmd)).rejects.toThrow('outbox unavailable');
      expect(await recordCount(partnerId)).toBe(0);
      expect(await create.execute(cmd)).toEqual({ ok: true, data: { id: expect.any(String), replayed: false } });
    });
  });

  describe("SMS to owners: the countries they go to and the partner's quota of 24 hours", () => {
    /** The example's owners, the second one at `phone`. */
    const withSecondPhone = (phone: string) => {
      const owners = structuredClone(BUSINESS_CUSTOMER_EXAMPLE.owners);
      owners[1].phone = phone;
      return { owners };
    };
    /** The use case under a quota of `perDay` SMS (the example asks 2, one per owner). */
    const underQuota = (perDay: number) =>
      new CreateBusinessCustomerUseCase(new UnitOfWork(db, relay), customers, notifications, {
        NOTIFY_SMS_COUNTRIES: 'BR',
        NOTIFY_SMS_PER_PARTNER_PER_DAY: perDay,
      });

    it('refuses SMS to an owner at a number abroad with sms_country_not_allowed naming the owner, storing nothing; without SMS it registers', async () => {
      const partnerId = testPartnerId();
      const key = `key-${newUuid()}`;
      const abroad = command(partnerId, { ...withSecondPhone('+14155552671'), idempotency_key: key });
      expect(await create.execute(abroad)).toEqual({
        ok: false,
        error: {
          code: 'sms_country_not_allowed',
          message:
            'owners.1.phone is a number of US: owners are sent SMS only at numbers of BR; give a number there, or register without auto_send_owner_sms',
          field: 'owners.1.phone',
        },
      });
      expect([await customerCount(partnerId), await notificationCount(partnerId), await recordCount(partnerId)]).toEqual([0, 0, 0]);
      // E-mail only: the number abroad is kept on the owner, and no SMS is recorded. The refusal bound no key.
      const emailOnly = { ...abroad, config: { auto_send_owner_sms: false, auto_send_owner_email: true } };
      expect(await create.execute(emailOnly)).toMatchObject({ ok: true, data: { replayed: false } });
      expect(
        (await selectRows<{ channel: string }>(db, 'SELECT channel FROM owner_notifications WHERE partner_id = $1', [partnerId])).map(
          (r) => r.channel,
        ),
      ).toEqual(['email', 'email']);
      // A second country the operator adds is taken.
      const alsoUs = new CreateBusinessCustomerUseCase(new UnitOfWork(db, relay), customers, notifications, {
        NOTIFY_SMS_COUNTRIES: 'BR,US',
        NOTIFY_SMS_PER_PARTNER_PER_DAY: 1000,
      });
      expect(await alsoUs.execute(command(partnerId, withSecondPhone('+14155552671')))).toMatchObject({ ok: true });
    });

    it('refuses SMS past the quota with sms_quota_exceeded and when they fit again, storing nothing; registrations without SMS and other partners go on', async () => {
      const [partnerId, other] = [testPartnerId(), testPartnerId()];
      const create3 = underQuota(3);
      expect(await create3.execute(command(partnerId))).toMatchObject({ ok: true });
      const refused = await create3.execute(command(partnerId, { idempotency_key: `key-${newUuid()}` }));
      expect(refused).toEqual({
        ok: false,
        error: {
          code: 'sms_quota_exceeded',
          message: expect.stringMatching(
            /^this registration would send 2 SMS; 2 of the 3 a partner may send in 24 hours are used: retry in \d+ s, or register without auto_send_owner_sms$/,
          ),
          retry_after_seconds: expect.any(Number),
        },
      });
      // The first registration's SMS leave the 24 hours in (just under) a day.
      const seconds = !refused.ok ? (refused.error.retry_after_seconds ?? 0) : 0;
      expect(seconds).toBeGreaterThan(86_400 - 60);
      expect(seconds).toBeLessThanOrEqual(86_400);
      expect([await customerCount(partnerId), await notificationCount(partnerId), await recordCount(partnerId)]).toEqual([1, 2, 0]);
      const noSms = { config: { auto_send_owner_sms: false, auto_send_owner_email: true } };
      expect(await create3.execute(command(partnerId, noSms))).toMatchObject({ ok: true });
      expect(await create3.execute(command(other))).toMatchObject({ ok: true });
      // SMS over 24 hours old no longer count.
      await db.query(`UPDATE owner_notifications SET created_at = created_at - interval '25 hours' WHERE partner_id = $1`, [partnerId]);
      expect(await create3.execute(command(partnerId))).toMatchObject({ ok: true });
    });

    it('never lets concurrent registrations pass the quota together', async () => {
      const partnerId = testPartnerId();
      const replies = await Promise.all(Array.from({ length: 8 }, () => underQuota(7).execute(command(partnerId))));
      expect(replies.filter((r) => r.ok)).toHaveLength(3);
      expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.error.code)).toEqual(Array(5).fill('sms_quota_exceeded'));
      expect(await selectCount(db, `SELECT count(*) FROM owner_notifications WHERE partner_id = $1 AND channel = 'sms'`, [partnerId])).toBe(
        6,
      );
    });

    it('a registration asking more SMS than the whole quota is refused without a time to retry: it would never fit', async () => {
      const partnerId = testPartnerId();
      expect(await underQuota(1).execute(command(partnerId))).toEqual({
        ok: false,
        error: {
          code: 'sms_quota_exceeded',
          message: 'this registration would send 2 SMS, more than the 1 a partner may in 24 hours: register without auto_send_owner_sms',
        },
      });
      expect(await customerCount(partnerId)).toBe(0);
    });
  });
});
