import { loadConfig } from '@partner/config';
import { IngestPixInflowCommand, PartnerId, PixInNotifiedStatus, Topics } from '@partner/contracts';
import { newCpf, outboxEventsOf, selectCount, selectRows, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { AccountRepository } from '../accounts/account.repository';
import { GetBrlLedgerUseCase } from '../accounts/brl-balance.use-cases';
import { SetAccountStatusUseCase } from '../accounts/set-account-status.use-case';
import { PartnerStatusRepository } from '../partner-statuses/partner-status.repository';
import { ingestionOn, openAccount, receiverOf } from '../accounts/accounts.spec-support';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';
import { completeSender } from '../spi-simulator/sender-details';
import { ListUnmatchedPixInflowsUseCase } from './list-unmatched-pix-inflows.use-case';
import { UnmatchedPixInflowRepository } from './unmatched-pix-inflow.repository';

// Integration: the real inflows schema in PostgreSQL. Each test uses a partner and user of its own.
const config = loadConfig(InflowsConfig);
const db = new Database(config, DB_SCHEMA);
const accounts = new AccountRepository(db);
const ingest = ingestionOn(db, config);
const ledger = new GetBrlLedgerUseCase(accounts);
const unmatched = new ListUnmatchedPixInflowsUseCase(new UnmatchedPixInflowRepository(db));
const partners = new PartnerStatusRepository(db);
const setStatus = new SetAccountStatusUseCase(new UnitOfWork(db, { wake: () => undefined }), accounts);

afterAll(() => db.close());

interface Receiver {
  partnerId: PartnerId;
  document: string;
}

/** A notification of a new Pix to a new user's account, at `processing`. */
async function notification(overrides: Partial<IngestPixInflowCommand> = {}): Promise<IngestPixInflowCommand & { receiver: Receiver }> {
  const partnerId = testPartnerId();
  const document = newCpf();
  const account = await openAccount(db, config, partnerId, document);
  const sender = completeSender({});
  return {
    end_to_end_id: newEndToEndId(sender.sender_bank_code, new Date()),
    amount_cents: 5_000,
    method: 'dict',
    receiver_account: receiverOf(config, account),
    receiver_key: document,
    ...sender,
    status: 'processing',
    ...overrides,
    receiver: { partnerId, document },
  };
}

/** A new end-to-end id from the same sender's bank as `n` (never `n`'s own). */
const anotherId = (n: IngestPixInflowCommand): string => newEndToEndId(n.sender_bank_code, new Date());

/** The notification as the provider sends it: without the spec's bookkeeping. */
const sent = (
  { receiver: _receiver, ...n }: IngestPixInflowCommand & { receiver?: Receiver },
  status?: PixInNotifiedStatus,
): IngestPixInflowCommand => (status ? { ...n, status } : n);

/** The pix_in events waiting in the outbox, in commit order. */
const pixInMessages = () =>
  selectRows<{ topic: string; payload: unknown }>(db, 'SELECT topic, payload FROM outbox_messages WHERE topic = $1 ORDER BY id', [
    Topics.PixInStateChanged,
  ]);

async function statesOf(partnerId: string): Promise<string[]> {
  return outboxEventsOf(Topics.PixInStateChanged, await pixInMessages(), partnerId).map((e) => e.state);
}

const balanceOf = async ({ partnerId, document }: Receiver) => (await accounts.find(partnerId, document))?.availableBrlCents;
async function ledgerOf({ partnerId, document }: Receiver) {
  const reply = await ledger.execute({ partner_id: partnerId, document });
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.data.entries.map((e) => [e.end_to_end_id, e.available_delta_cents, e.available_after_cents]);
}

/** Takes a notification to `success`, one status at a time. */
async function toSuccess(n: IngestPixInflowCommand): Promise<void> {
  for (const status of ['processing', 'approved', 'success'] as const) expect((await ingest.execute({ ...n, status })).ok).toBe(true);
}

describe('IngestPixInflowUseCase (PostgreSQL)', () => {
  it("records for the account's user at the notified status, moves along the table with one event per change, and leaves repeats alone", async () => {
    const n = await notification();
    const p = sent(n);
    expect(await ingest.execute(p)).toEqual({
      ok: true,
      data: { end_to_end_id: p.end_to_end_id, status: 'processing', created: true, matched: true },
    });
    expect(await ingest.execute(p)).toEqual({
      ok: true,
      data: { end_to_end_id: p.end_to_end_id, status: 'processing', created: false, matched: true },
    });
    for (const status of ['approved', 'success', 'approved', 'credited'] as const) await ingest.execute({ ...p, status });
    expect(await statesOf(n.receiver.partnerId)).toEqual(['processing', 'approved', 'success', 'credited']);
    expect(await ingest.execute({ ...p, status: 'processing' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition', message: 'a pix inflow cannot move from credited to processing' },
    });
    const [event] = outboxEventsOf(Topics.PixInStateChanged, await pixInMessages(), n.receiver.partnerId);
    expect(event.resource.document).toBe(n.receiver.document);
  });

  it('credits the BRL balance once, in the transaction of `credited`, whatever is redelivered or replayed', async () => {
    const n = await notification({ amount_cents: 12_345 });
    const p = sent(n);
    await toSuccess(p);
    expect(await balanceOf(n.receiver)).toBe(0n);
    const credited = await ingest.execute({ ...p, status: 'credited' });
    expect(credited).toMatchObject({ ok: true, data: { status: 'credited', created: false, matched: true } });
    // Redelivery of the last notification, then a replay of the whole sequence: nothing more.
    for (let i = 0; i < 3; i++) await ingest.execute({ ...p, status: 'credited' });
    for (const status of ['processing', 'approved', 'success', 'credited'] as const) await ingest.execute({ ...p, status });

    expect(await balanceOf(n.receiver)).toBe(12_345n);
    expect(await ledgerOf(n.receiver)).toEqual([[p.end_to_end_id, 12_345, 12_345]]);
    expect(await statesOf(n.receiver.partnerId)).toEqual(['processing', 'approved', 'success', 'credited']);
  });

  it('credits each inflow of a user once, with the balance after each entry', async () => {
    const first = await notification({ amount_cents: 1_000 });
    await toSuccess(sent(first));
    await ingest.execute(sent(first, 'credited'));
    const sender = completeSender({});
    const second = { ...sent(first), ...sender, end_to_end_id: newEndToEndId(sender.sender_bank_code, new Date()), amount_cents: 250 };
    await toSuccess(second);
    await ingest.execute({ ...second, status: 'credited' });

    expect(await balanceOf(first.receiver)).toBe(1_250n);
    expect(await ledgerOf(first.receiver)).toEqual([
      [second.end_to_end_id, 250, 1_250],
      [first.end_to_end_id, 1_000, 1_000],
    ]);
  });

  it('credits once under concurrent duplicates: of `credited` after success, and of a first notification already at `credited`', async () => {
    const moved = await notification({ amount_cents: 700 });
    await toSuccess(sent(moved));
    const replies = await Promise.all(Array.from({ length: 8 }, () => ingest.execute(sent(moved, 'credited'))));
    expect(replies.every((r) => r.ok && r.data.status === 'credited')).toBe(true);
    expect(await balanceOf(moved.receiver)).toBe(700n);

    const direct = await notification({ amount_cents: 900, status: 'credited' });
    const first = await Promise.all(Array.from({ length: 8 }, () => ingest.execute(sent(direct))));
    expect(first.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    expect(await balanceOf(direct.receiver)).toBe(900n);
    expect(await ledgerOf(direct.receiver)).toEqual([[direct.end_to_end_id, 900, 900]]);
    expect(await statesOf(direct.receiver.partnerId)).toEqual(['credited']);
  });

  it('credits nothing for an inflow that ends denied or failed', async () => {
    const denied = await notification();
    await ingest.execute(sent(denied));
    await ingest.execute(sent(denied, 'denied'));
    const failed = await notification();
    await toSuccess(sent(failed));
    await ingest.execute(sent(failed, 'failed'));
    expect([await balanceOf(denied.receiver), await balanceOf(failed.receiver)]).toEqual([0n, 0n]);
  });

  it('refuses another payload for the id (amount, key, receiving account), and records nothing for it', async () => {
    const n = await notification();
    const p = sent(n);
    await ingest.execute(p);
    const other = await notification();
    for (const changed of [
      { ...p, amount_cents: 1 },
      { ...p, receiver_key: 'maria@example.com' },
      { ...p, receiver_account: other.receiver_account },
      { ...p, receiver_account: { ...p.receiver_account, ispb: '12345678' } },
    ])
      expect(await ingest.execute(changed)).toMatchObject({ ok: false, error: { code: 'end_to_end_id_conflict', field: 'end_to_end_id' } });
    expect(await statesOf(other.receiver.partnerId)).toEqual([]);
    expect(await statesOf(n.receiver.partnerId)).toEqual(['processing']);
  });

  it('refuses an inflow for an account no user has (another ISPB, number or type), keeping it for the operator: no event, no credit', async () => {
    const known = await notification();
    const strangers = [
      { ...sent(known), receiver_account: { ...known.receiver_account, number: '999999999999' } },
      { ...sent(known), receiver_account: { ...known.receiver_account, ispb: '12345678' } },
      { ...sent(known), receiver_account: { ...known.receiver_account, type: 'CACC' as const } },
    ].map((n, i) => ({ ...n, end_to_end_id: `${n.end_to_end_id.slice(0, 31)}${i}` }));
    const notFound = { ok: false, error: { code: 'account_not_found', field: 'receiver_account' } };

    for (const n of strangers) {
      expect(await ingest.execute(n)).toMatchObject(notFound);
      expect(await ingest.execute(n)).toMatchObject(notFound);
    }
    const [kept] = strangers;
    // A provider that sends the later notifications anyway: recorded, answered the same refusal.
    for (const status of ['approved', 'success', 'credited'] as const)
      expect(await ingest.execute({ ...kept, status })).toMatchObject(notFound);
    expect(await ingest.execute({ ...kept, status: 'failed' })).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    expect(await ingest.execute({ ...kept, amount_cents: 1 })).toMatchObject({ ok: false, error: { code: 'end_to_end_id_conflict' } });

    expect(await statesOf(known.receiver.partnerId)).toEqual([]);
    expect(await balanceOf(known.receiver)).toBe(0n);
    expect(
      await selectCount(db, 'SELECT count(*) FROM pix_inflows WHERE end_to_end_id = ANY($1)', [strangers.map((n) => n.end_to_end_id)]),
    ).toBe(0);
    const listed = await unmatched.execute({ limit: 200 });
    if (!listed.ok) throw new Error(JSON.stringify(listed.error));
    const mine = listed.data.unmatched_pix_inflows.filter((u) => strangers.some((n) => n.end_to_end_id === u.end_to_end_id));
    expect(mine.map((u) => [u.end_to_end_id, u.status, u.receiver_account, u.refusal])).toEqual(
      [...strangers]
        .reverse()
        .map((n) => [n.end_to_end_id, n === kept ? 'credited' : 'processing', n.receiver_account, 'account_not_found']),
    );
    expect(mine[2]).toMatchObject({ amount_cents: kept.amount_cents, receiver_key: kept.receiver_key, sender_tax_id: kept.sender_tax_id });
  });

  /** The operator's change of the receiver's account status. */
  const setAccount = (to: Receiver, status: 'active' | 'blocked' | 'closed') =>
    setStatus.execute({
      partner_id: to.partnerId,
      document: to.document,
      status,
      reason: 'spec',
      by: 'spec',
      asked_at: new Date().toISOString(),
    });

  it('refuses a new inflow to a blocked account (account_blocked), kept for the operator; one under way goes on; unblocked, it receives again', async () => {
    const underWay = await notification();
    expect(await ingest.execute(sent(underWay))).toMatchObject({ ok: true, data: { created: true, matched: true } });
    expect(await setAccount(underWay.receiver, 'blocked')).toMatchObject({ ok: true, data: { status: 'blocked', status_reason: 'spec' } });

    const fresh = { ...sent(underWay), end_to_end_id: anotherId(underWay) };
    expect(await ingest.execute(fresh)).toMatchObject({ ok: false, error: { code: 'account_blocked', field: 'receiver_account' } });
    expect(await ingest.execute({ ...fresh, status: 'approved' })).toMatchObject({ ok: false, error: { code: 'account_blocked' } });
    const listed = await unmatched.execute({ limit: 200 });
    if (!listed.ok) throw new Error(JSON.stringify(listed.error));
    expect(listed.data.unmatched_pix_inflows.find((u) => u.end_to_end_id === fresh.end_to_end_id)).toMatchObject({
      status: 'approved',
      refusal: 'account_blocked',
    });
    for (const next of ['approved', 'success', 'credited'] as const)
      expect(await ingest.execute(sent(underWay, next))).toMatchObject({ ok: true, data: { status: next } });
    expect(await statesOf(underWay.receiver.partnerId)).toEqual(['processing', 'approved', 'success', 'credited']);

    expect(await setAccount(underWay.receiver, 'active')).toMatchObject({ ok: true, data: { status: 'active' } });
    const later = { ...sent(underWay), end_to_end_id: anotherId(underWay) };
    expect(await ingest.execute(later)).toMatchObject({ ok: true, data: { created: true, matched: true } });
  });

  it('closes only an empty account with nothing under way; closed, it refuses every inflow (account_closed) and for good', async () => {
    const n = await notification();
    expect(await ingest.execute(sent(n))).toMatchObject({ ok: true });
    expect(await setAccount(n.receiver, 'closed')).toMatchObject({ ok: false, error: { code: 'account_not_empty' } });
    for (const next of ['approved', 'success', 'credited'] as const) await ingest.execute(sent(n, next));
    expect(await setAccount(n.receiver, 'closed')).toMatchObject({ ok: false, error: { code: 'account_not_empty' } });

    const empty = await notification();
    expect(await setAccount(empty.receiver, 'closed')).toMatchObject({ ok: true, data: { status: 'closed' } });
    expect(await ingest.execute(sent(empty))).toMatchObject({ ok: false, error: { code: 'account_closed', field: 'receiver_account' } });
    expect(await setAccount(empty.receiver, 'active')).toMatchObject({ ok: false, error: { code: 'account_closed' } });
    expect(await statesOf(empty.receiver.partnerId)).toEqual([]);
  });

  it("refuses a disabled partner's users' new inflows (account_blocked, not naming the partner), and receives them once it is enabled again", async () => {
    const n = await notification();
    const at = Date.now();
    expect(await partners.apply(n.receiver.partnerId, 'disabled', new Date(at))).toBe(true);
    expect(await ingest.execute(sent(n))).toMatchObject({ ok: false, error: { code: 'account_blocked', field: 'receiver_account' } });
    // An older event arriving late changes nothing.
    expect(await partners.apply(n.receiver.partnerId, 'active', new Date(at - 1_000))).toBe(false);
    expect(await partners.apply(n.receiver.partnerId, 'active', new Date(at + 1_000))).toBe(true);
    const next = { ...sent(n), end_to_end_id: anotherId(n) };
    expect(await ingest.execute(next)).toMatchObject({ ok: true, data: { created: true, matched: true } });
    expect(await statesOf(n.receiver.partnerId)).toEqual(['processing']);
  });

  it('keeps settled money: success cannot move to failed (409 invalid_transition), credited stays reachable', async () => {
    const n = await notification();
    for (const status of ['processing', 'approved', 'success'] as const) await ingest.execute(sent(n, status));
    expect(await ingest.execute(sent(n, 'failed'))).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    expect(await ingest.execute(sent(n, 'credited'))).toMatchObject({ ok: true, data: { status: 'credited' } });
    expect(await balanceOf(n.receiver)).toBe(5_000n);
  });

  it('keeps an id aside for good: an account opened later does not take an inflow first notified for no one', async () => {
    const n = await notification();
    const unknown = { ...sent(n), receiver_account: { ...n.receiver_account, number: '999999999998' } };
    await ingest.execute(unknown);
    // The same id named for a known account now: other details, refused; the kept one stays as it was.
    expect(await ingest.execute(sent(n))).toMatchObject({ ok: false, error: { code: 'end_to_end_id_conflict' } });
    expect(await statesOf(n.receiver.partnerId)).toEqual([]);
  });
});
