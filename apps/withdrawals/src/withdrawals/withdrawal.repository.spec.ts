import { ConnectionPool, Database, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, ScriptedConnection, testPartnerId } from '@partner/testing';
import { holdMove } from './hold-rule';
import { stateChanged } from './withdrawal-event';
import { createdWithdrawal, NewWithdrawal, WithdrawalRepository } from './withdrawal.repository';

// Unit: what createHeld hands its one statement, and how it reads the statement's failures. The statement itself runs
// against PostgreSQL in create-withdrawal.use-case.int.spec.ts.
const repository = new WithdrawalRepository({} as Database);

const data: NewWithdrawal = {
  partnerId: testPartnerId(),
  document: newCpf(),
  idempotencyKey: newUuid(),
  fingerprint: 'f'.repeat(64),
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  network: 'MATIC',
  feeChoice: 'LOW',
  amountMicros: 1_000_000n,
  feeMicros: 20_000n,
  beneficiary: null,
};
const now = new Date('2026-11-30T12:00:00Z');

/** A unit of work on one scripted connection: what the statement was sent, and its answer (or failure). */
function scripted(failure?: Error) {
  const connection = new ScriptedConnection([[{ id: null, outbox_rows: 0 }]]);
  connection.failure = failure;
  const pool: ConnectionPool = { connect: async () => connection };
  return { work: new UnitOfWork(pool, { wake: () => undefined }), sent: connection.sent };
}

/** What pg raises for a statement that failed: a DatabaseError carries the SQLSTATE and, for a constraint, its name. */
const pgError = (code: string, fields: { constraint?: string; hint?: string; message?: string } = {}) =>
  Object.assign(new Error(fields.message ?? code), { code, ...fields });

describe('WithdrawalRepository.createHeld: the statement applies the TypeScript rules it is given', () => {
  it('passes the hold rule’s move, the deltas the statement adds to the account and records in the ledger', async () => {
    const { work, sent } = scripted();
    await repository.createHeld(work, data, now, stateChanged);
    const values = sent[0].values ?? [];
    const move = holdMove(data.amountMicros, data.feeMicros);
    expect(values.slice(13, 15)).toEqual([move.availableDelta.toString(), move.heldDelta.toString()]);
    expect(sent[0].text).toContain('available_micros = available_micros + $14::bigint, held_micros = held_micros + $15::bigint');
    expect(sent[0].text).toContain("'withdrawal_hold', $14::bigint, $15::bigint");
    // No second copy of the rule: the statement neither works out amount + fee nor checks coverage itself.
    expect(sent[0].text).not.toMatch(/\$8::bigint \+ \$9::bigint|available_micros >=/);
  });

  it('passes the contract’s event key around the id, which is all the statement puts in: no copy of the key in SQL', async () => {
    const { work, sent } = scripted();
    await repository.createHeld(work, data, now, stateChanged);
    const [keyBefore, keyAfter] = (sent[0].values ?? []).slice(15, 17);
    expect(sent[0].text).toContain('$16::text || w.id::text || $17::text');
    expect(sent[0].text).not.toContain('usdt_withdrawal');
    // What the statement makes of them for the id it inserts: the key the builder gives that withdrawal.
    expect(`${keyBefore}${4242}${keyAfter}`).toBe(stateChanged(createdWithdrawal(data, 4242, now)).key);
  });

  it('answers a hold the no-overdraft constraint stopped as insufficient, and keeps the other outcomes', async () => {
    const overdraft = pgError('23514', { constraint: 'accounts_available_non_negative' });
    expect(await repository.createHeld(scripted(overdraft).work, data, now, stateChanged)).toBe('insufficient');
    const noUser = pgError('P0001', { hint: 'refused', message: 'user_not_found' });
    expect(await repository.createHeld(scripted(noUser).work, data, now, stateChanged)).toBe('not_found');
    const refusedBefore = pgError('P0001', { hint: 'refused', message: 'refused_before' });
    expect(await repository.createHeld(scripted(refusedBefore).work, data, now, stateChanged)).toBe('refused_before');
    expect(await repository.createHeld(scripted().work, data, now, stateChanged)).toBe('duplicate');
    // Any other violation is no domain answer.
    const other = pgError('23514', { constraint: 'accounts_balance_safe_integer' });
    await expect(repository.createHeld(scripted(other).work, data, now, stateChanged)).rejects.toBe(other);
  });
});
