import { loadConfig } from '@partner/config';
import { PixKeyState, PixKeyStateChangedEvent, PartnerId } from '@partner/contracts';
import { newCpf, newUuid, pixKeyStateChanged, selectCount, selectRow, testPartnerId } from '@partner/testing';
import { Database } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { InflowsConfig } from '../config/inflows.config';
import { ApplyPixKeyEventUseCase } from './apply-pix-key-event.use-case';
import { PixKeyEventsHandler } from './pix-key-events.handler';
import { PixKeyReplicaRepository } from './pix-key-replica.repository';

// Integration: the replica in PostgreSQL, fed with pix_key events as the pix-keys service publishes them.
const db = new Database(loadConfig(InflowsConfig), DB_SCHEMA);
const replica = new PixKeyReplicaRepository(db);
const apply = new ApplyPixKeyEventUseCase(replica);

afterAll(() => db.close());

/** A pix_key event for one key, `secondsLater` after a fixed start so tests control the order. */
const keyEvent = (
  partnerId: PartnerId,
  document: string,
  keyId: string,
  state: PixKeyState,
  secondsLater: number,
): PixKeyStateChangedEvent =>
  pixKeyStateChanged(partnerId, { document, keyId, state, at: new Date(Date.UTC(2026, 10, 22, 12, 0, secondsLater)) });

async function user() {
  return { partnerId: testPartnerId(), document: newCpf(), keyId: newUuid() };
}

describe('Pix key replica (PostgreSQL)', () => {
  it('follows a key through its life: only `registered` lets a Pix by key through', async () => {
    const { partnerId, document, keyId } = await user();
    const seen: boolean[] = [await replica.hasRegisteredKey(partnerId, document)];
    for (const [i, state] of (['pending', 'registered', 'deleting', 'canceled'] as const).entries()) {
      await apply.execute(keyEvent(partnerId, document, keyId, state, i));
      seen.push(await replica.hasRegisteredKey(partnerId, document));
    }
    expect(seen).toEqual([false, false, true, false, false]);
  });

  it('knows a key that failed to register is not there', async () => {
    const { partnerId, document, keyId } = await user();
    await apply.execute(keyEvent(partnerId, document, keyId, 'pending', 0));
    await apply.execute(keyEvent(partnerId, document, keyId, 'failed', 1));
    expect(await replica.hasRegisteredKey(partnerId, document)).toBe(false);
  });

  it('sees a key registered again, as a new key, after the old one was canceled', async () => {
    const { partnerId, document, keyId } = await user();
    await apply.execute(keyEvent(partnerId, document, keyId, 'registered', 0));
    await apply.execute(keyEvent(partnerId, document, keyId, 'canceled', 1));
    const again = newUuid();
    await apply.execute(keyEvent(partnerId, document, again, 'pending', 2));
    expect(await replica.hasRegisteredKey(partnerId, document)).toBe(false);
    await apply.execute(keyEvent(partnerId, document, again, 'registered', 3));
    expect(await replica.hasRegisteredKey(partnerId, document)).toBe(true);
  });

  it('ignores an older event arriving late or redelivered: the newest state stays', async () => {
    const { partnerId, document, keyId } = await user();
    const registered = keyEvent(partnerId, document, keyId, 'registered', 1);
    const canceled = keyEvent(partnerId, document, keyId, 'canceled', 5);
    await apply.execute(canceled);
    await apply.execute(registered);
    await apply.execute(keyEvent(partnerId, document, keyId, 'pending', 0));
    expect(await replica.hasRegisteredKey(partnerId, document)).toBe(false);
    const row = await selectRow<{ state: string; occurred_at: Date }>(
      db,
      'SELECT state, occurred_at FROM pix_key_replica WHERE partner_id = $1 AND key_id = $2',
      [partnerId, keyId],
    );
    expect([row.state, row.occurred_at.toISOString()]).toEqual(['canceled', canceled.occurred_at]);
  });

  it('orders two events of the same millisecond by the key lifecycle', async () => {
    const { partnerId, document, keyId } = await user();
    await apply.execute(keyEvent(partnerId, document, keyId, 'registered', 0));
    await apply.execute(keyEvent(partnerId, document, keyId, 'pending', 0));
    expect(await replica.hasRegisteredKey(partnerId, document)).toBe(true);
  });

  it("scopes keys by partner: another partner's registered key for the same CPF does not count", async () => {
    const { partnerId, document, keyId } = await user();
    await apply.execute(keyEvent(partnerId, document, keyId, 'registered', 0));
    expect(await replica.hasRegisteredKey(testPartnerId(), document)).toBe(false);
  });

  it('refuses an event whose snapshot carries no valid CPF as unprocessable (the transport parks it), storing nothing', async () => {
    const { partnerId, document, keyId } = await user();
    const event = keyEvent(partnerId, document, keyId, 'registered', 0);
    // Through the consumer boundary (@HandleEvent), which validates the snapshot with the envelope.
    const consumer = new PixKeyEventsHandler(apply);
    await expect(consumer.handle({ ...event, resource: { ...event.resource, document: '123' } })).rejects.toMatchObject({
      name: 'UnprocessableEventError',
    });
    expect(await selectCount(db, 'SELECT count(*) FROM pix_key_replica WHERE partner_id = $1', [partnerId])).toBe(0);
  });
});
