import { loadConfig } from '@partner/config';
import { newCpf, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { AccountRepository } from '../accounts/account.repository';
import { CreditAccountUseCase } from '../accounts/credit-account.use-case';
import { ListUsersUseCase } from '../accounts/list-users.use-case';
import { OpenUserAccountUseCase } from '../accounts/open-user-account.use-case';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { RefusedCommandRepository } from '../refusals/refused-command.repository';
import { GetLedgerUseCase } from './get-ledger.use-case';
import { LedgerRepository } from './ledger.repository';

// Integration: the operator's reads (withdrawals.query.ledger.v1, list-users.v1) on the real withdrawals schema.
const db = new Database(loadConfig(WithdrawalsConfig), DB_SCHEMA);
const accounts = new AccountRepository(db);
const credit = new CreditAccountUseCase(new UnitOfWork(db, { wake: () => undefined }), accounts, new RefusedCommandRepository(db));
const upsert = new OpenUserAccountUseCase(accounts);
const ledger = new GetLedgerUseCase(accounts, new LedgerRepository(db));
const listUsers = new ListUsersUseCase(accounts);

afterAll(() => db.close());

describe('the operator reads of the books', () => {
  it("pages a user's ledger newest first with the balances after each entry, and never another partner's", async () => {
    const partnerId = testPartnerId();
    const document = newCpf();
    await upsert.execute({ partner_id: partnerId, document });
    for (const [i, micros] of [100, 250, 4_000].entries()) {
      const reply = await credit.execute({
        partner_id: partnerId,
        document,
        usdt_micros: micros,
        idempotency_key: `k-${i}`,
        reference: `r-${i}`,
      });
      expect(reply.ok).toBe(true);
    }
    const first = await ledger.execute({ partner_id: partnerId, document, limit: 2 });
    if (!first.ok) throw new Error(first.error.message);
    expect(
      first.data.entries.map((e) => [e.type, e.available_delta_micros, e.available_after_micros, e.idempotency_key, e.reference]),
    ).toEqual([
      ['credit', 4_000, 4_350, 'k-2', 'r-2'],
      ['credit', 250, 350, 'k-1', 'r-1'],
    ]);
    const second = await ledger.execute({ partner_id: partnerId, document, limit: 2, cursor: first.data.next_cursor ?? undefined });
    if (!second.ok) throw new Error(second.error.message);
    expect([second.data.entries.map((e) => e.available_after_micros), second.data.next_cursor]).toEqual([[100], null]);

    const other = await ledger.execute({ partner_id: testPartnerId(), document });
    expect(other).toEqual({ ok: false, error: expect.objectContaining({ code: 'user_not_found' }) });
    const badCursor = await ledger.execute({ partner_id: partnerId, document, cursor: 'bm9wZQ' });
    expect(badCursor).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_request', field: 'cursor' }) });
  });

  it("lists a partner's users by CPF in pages, with their balances", async () => {
    const partnerId = testPartnerId();
    const documents = [newCpf(), newCpf(), newCpf()].sort();
    for (const document of documents) await upsert.execute({ partner_id: partnerId, document });
    await upsert.execute({ partner_id: testPartnerId(), document: newCpf() });
    const first = await listUsers.execute({ partner_id: partnerId, limit: 2 });
    if (!first.ok) throw new Error(first.error.message);
    expect(first.data.users.map((u) => u.document)).toEqual(documents.slice(0, 2));
    const second = await listUsers.execute({ partner_id: partnerId, limit: 2, cursor: first.data.next_cursor ?? undefined });
    if (!second.ok) throw new Error(second.error.message);
    expect([second.data.users.map((u) => u.document), second.data.next_cursor]).toEqual([documents.slice(2), null]);
  });
});
