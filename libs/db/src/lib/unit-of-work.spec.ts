import { Topics } from '@partner/contracts';
import { ScriptedConnection } from '@partner/testing';
import { commandStatement, ConnectionPool, onConstraintViolation, UnitOfWork, violatedConstraint } from './unit-of-work';

// Unit: what runCommand sends, when it wakes the relay, and when it keeps its connection. The statement's SQL itself is proven against
// PostgreSQL where a service uses it (apps/withdrawals create-withdrawal.use-case.int.spec.ts).
const command = commandStatement({
  name: 'thing_create',
  params: 2,
  with: `t AS (INSERT INTO things (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING *)`,
  events: { topic: Topics.WithdrawalStateChanged, from: 't', key: `'thing:' || t.id`, payload: `jsonb_build_object('id', t.id)` },
  select: 'SELECT t.id FROM (SELECT 1) AS one LEFT JOIN t ON true',
});

/**
 * A pool of one scripted connection: what it was sent, and how it was given back (`released`: the error
 * passed, if any). A pool offers a unit of work `connect` only (ConnectionPool), so runCommand cannot use
 * pool.query, which drops the connection on any error.
 */
function fakePool(outboxRows: number, fail?: Error) {
  const connection = new ScriptedConnection([[{ id: 7, outbox_rows: outboxRows }]]);
  connection.failure = fail;
  const pool: ConnectionPool = { connect: async () => connection };
  return { pool, sent: connection.sent, released: connection.released };
}

describe('commandStatement', () => {
  it('adds the outbox insert over the events CTE, with the topic, request id and traceparent after the use case parameters', () => {
    expect(command.text).toContain(`SELECT $3::text, 'thing:' || t.id, jsonb_build_object('id', t.id), $4::text, $5::text FROM t`);
    expect(command.text).toContain('INSERT INTO outbox_messages (topic, key, payload, request_id, traceparent)');
    expect(command.text).toMatch(/\(SELECT count\(\*\)::int FROM outbox\) AS outbox_rows FROM \(SELECT t\.id FROM .*\) AS answer$/s);
  });
});

describe('UnitOfWork.runCommand', () => {
  it('sends one prepared statement (no BEGIN/COMMIT) with the topic, the request id and the traceparent (none: untraced) appended, and wakes the relay when it wrote events', async () => {
    const { pool, sent, released } = fakePool(1);
    const relay = { wakes: 0, wake: () => void relay.wakes++ };
    // The origin libs/kafka's eventOrigin reads from a request's context (request id 'req-1', no trace).
    const origin = () => ({ requestId: 'req-1', traceparent: null });
    const rows = await new UnitOfWork(pool, relay, origin).runCommand(command, ['a', 'b']);
    expect(rows).toEqual([{ id: 7, outbox_rows: 1 }]);
    expect(sent).toEqual([{ name: 'thing_create', text: command.text, values: ['a', 'b', Topics.WithdrawalStateChanged, 'req-1', null] }]);
    expect(relay.wakes).toBe(1);
    expect(released).toEqual([undefined]);
  });

  it('keeps the connection after an SQL error (a refusal), and retires it after a connection failure', async () => {
    const refusal = Object.assign(new Error('insufficient'), { code: 'P0001', hint: 'refused' });
    const refused = fakePool(0, refusal);
    await expect(new UnitOfWork(refused.pool, { wake: () => undefined }).runCommand(command, ['a', 'b'])).rejects.toBe(refusal);
    expect(refused.released).toEqual([undefined]);

    const lost = new Error('Connection terminated unexpectedly');
    const dropped = fakePool(0, lost);
    await expect(new UnitOfWork(dropped.pool, { wake: () => undefined }).runCommand(command, ['a', 'b'])).rejects.toBe(lost);
    expect(dropped.released).toEqual([lost]);
  });

  it('does not wake the relay when the statement wrote no event, and sends a null request id outside a request', async () => {
    const { pool, sent } = fakePool(0);
    const relay = { wakes: 0, wake: () => void relay.wakes++ };
    await new UnitOfWork(pool, relay).runCommand(command, ['a', 'b']);
    expect(sent[0].values?.[3]).toBeNull();
    expect(relay.wakes).toBe(0);
  });

  it('refuses a call with the wrong number of parameters, and a unit of work without an outbox', async () => {
    const { pool, sent } = fakePool(1);
    await expect(new UnitOfWork(pool, { wake: () => undefined }).runCommand(command, ['a'])).rejects.toThrow(
      'thing_create takes 2 parameters, got 1',
    );
    await expect(new UnitOfWork(pool).runCommand(command, ['a', 'b'])).rejects.toThrow('no outbox');
    expect(sent).toHaveLength(0);
  });
});

describe('onConstraintViolation', () => {
  // What the pg driver raises (a DatabaseError carries the SQLSTATE and the constraint's name).
  const violation = (code: string, constraint?: string) => Object.assign(new Error(`violates ${constraint}`), { code, constraint });
  const answers = { accounts_balance_safe_integer: () => 'too much' as const, customers_partner_cnpj_key: () => 'already exists' as const };

  it('answers a violation of a named constraint (a CHECK, a unique index) with its mapping', async () => {
    expect(await onConstraintViolation(Promise.reject(violation('23514', 'accounts_balance_safe_integer')), answers)).toBe('too much');
    expect(await onConstraintViolation(Promise.reject(violation('23505', 'customers_partner_cnpj_key')), answers)).toBe('already exists');
  });

  it('passes the result of work that succeeds through', async () => {
    expect(await onConstraintViolation(Promise.resolve(42), answers)).toBe(42);
  });

  it('lets every other failure propagate: another constraint, another SQLSTATE, no constraint, not a database error', async () => {
    for (const error of [
      violation('23505', 'withdrawals_partner_id_idempotency_key_key'),
      violation('40001', 'accounts_balance_safe_integer'),
      violation('23514'),
      violation('23505', 'toString'),
      new Error('broker away'),
    ]) {
      await expect(onConstraintViolation(Promise.reject(error), answers)).rejects.toBe(error);
    }
  });

  it('throws what a mapping throws (a typed domain error)', async () => {
    class AlreadyExists extends Error {}
    const mapped = onConstraintViolation(Promise.reject(violation('23505', 'customers_partner_cnpj_key')), {
      customers_partner_cnpj_key: () => {
        throw new AlreadyExists();
      },
    });
    await expect(mapped).rejects.toBeInstanceOf(AlreadyExists);
  });

  it('reads the constraint of integrity violations (SQLSTATE class 23) only', () => {
    expect(violatedConstraint(violation('23505', 'k'))).toBe('k');
    expect(violatedConstraint(violation('23503', 'fk'))).toBe('fk');
    expect(violatedConstraint(violation('42P01', 'k'))).toBeUndefined();
    expect(violatedConstraint(undefined)).toBeUndefined();
    expect(violatedConstraint('23505')).toBeUndefined();
  });
});
