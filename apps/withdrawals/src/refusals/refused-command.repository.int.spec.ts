import { loadConfig } from '@partner/config';
import { newUuid, testPartnerId } from '@partner/testing';
import { Database, pruneRefusals, REFUSAL_RETENTION_HOURS } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { RefusedCommandRepository } from './refused-command.repository';

// Integration: the real withdrawals.refused_commands table (npm test migrates it).
const db = new Database(loadConfig(WithdrawalsConfig), DB_SCHEMA);
const refusals = new RefusedCommandRepository(db);

afterAll(() => db.close());

describe('RefusedCommandRepository (PostgreSQL)', () => {
  it('keeps a refusal by command id, for its partner only, and ignores a second keep of the same command', async () => {
    const partnerId = testPartnerId();
    const commandId = `test-${newUuid()}`;
    const memory = refusals.memoryOf(partnerId, commandId, newUuid());
    expect(await memory?.recall()).toBeNull();
    await memory?.keep({ code: 'insufficient_funds', message: 'balance does not cover it' });
    await memory?.keep({ code: 'user_not_found', message: 'a second keep changes nothing' });
    expect(await memory?.recall()).toEqual({ code: 'insufficient_funds', message: 'balance does not cover it' });
    expect(await refusals.memoryOf(testPartnerId(), commandId, newUuid())?.recall()).toBeNull();
    // A command called in process has no id: nothing to remember it by, and no copy to guard against.
    expect(refusals.memoryOf(partnerId, undefined, newUuid())).toBeUndefined();
  });

  it('prunes the refusals older than the retention and keeps the newer ones', async () => {
    const partnerId = testPartnerId();
    const [old, recent] = [`test-${newUuid()}`, `test-${newUuid()}`];
    for (const id of [old, recent]) await refusals.memoryOf(partnerId, id, newUuid())?.keep({ code: 'insufficient_funds', message: 'no' });
    await db.query(`UPDATE refused_commands SET refused_at = now() - make_interval(hours => $2) WHERE command_id = $1`, [
      old,
      REFUSAL_RETENTION_HOURS + 1,
    ]);
    expect(await pruneRefusals(db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await refusals.memoryOf(partnerId, old, newUuid())?.recall()).toBeNull();
    expect(await refusals.memoryOf(partnerId, recent, newUuid())?.recall()).toEqual({ code: 'insufficient_funds', message: 'no' });
  });
});
