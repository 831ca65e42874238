import { PixKeyState, PartnerId } from '@partner/contracts';
import { newCpf, newUuid, selectRows, testPartnerId } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { NAMED, specConfig } from './pix-key-commands.spec-support';
import { UserRepository } from '../users/user.repository';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { GetPixKeyUseCase } from './get-pix-key.use-case';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotentCommandService } from './idempotent-command.service';
import { PixKeyRepository } from './pix-key.repository';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it). Each test uses a partner of
// its own; the DICT's moves are made here by hand.
const db = new Database(specConfig(), DB_SCHEMA);
const users = new UserRepository(db);
const pixKeys = new PixKeyRepository(db);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const create = new CreatePixKeyUseCase(new IdempotentCommandService(unitOfWork, new IdempotencyRecordRepository(db)), pixKeys);
const get = new GetPixKeyUseCase(pixKeys);

async function newUser() {
  const partnerId = testPartnerId();
  const document = newCpf();
  await users.upsert(partnerId, document, NAMED);
  return { partnerId, document };
}

/** Asks for the user's key (pending) and moves it along `path` as the DICT would; answers its id. */
async function keyThrough(partnerId: PartnerId, document: string, ...path: PixKeyState[]): Promise<string> {
  const reply = await create.execute({ partner_id: partnerId, document, idempotency_key: newUuid() });
  if (!reply.ok) throw new Error(`key refused: ${reply.error.code}`);
  const [key] = await selectRows<{ id: string }>(
    db,
    "SELECT id FROM pix_keys WHERE partner_id = $1 AND document = $2 AND state = 'pending'",
    [partnerId, document],
  );
  let from: PixKeyState = 'pending';
  for (const to of path) {
    await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, key.id, from, to));
    from = to;
  }
  return key.id;
}

const notFound = { ok: false, error: { code: 'not_found', message: expect.any(String) } };

afterAll(() => db.close());

describe('GetPixKeyUseCase (PostgreSQL)', () => {
  it('answers the document, the state as status, and integer Unix times, as the key moves', async () => {
    const { partnerId, document } = await newUser();
    const before = Math.floor(Date.now() / 1000);
    const id = await keyThrough(partnerId, document);
    const pending = await get.execute({ partner_id: partnerId, document });
    expect(pending).toEqual({
      ok: true,
      data: {
        document,
        key_type: 'cpf',
        key: document,
        status: 'pending',
        created_at: expect.any(Number),
        last_updated_at: expect.any(Number),
      },
    });
    const { created_at: createdAt } = pending.ok ? pending.data : { created_at: NaN };
    expect(Number.isInteger(createdAt)).toBe(true);
    expect(createdAt).toBeGreaterThanOrEqual(before);

    for (const [from, to] of [
      ['pending', 'registered'],
      ['registered', 'deleting'],
      ['deleting', 'canceled'],
    ] as const) {
      await unitOfWork.run((tx) => pixKeys.transition(tx, partnerId, id, from, to));
      expect(await get.execute({ partner_id: partnerId, document })).toEqual({
        ok: true,
        data: { document, key_type: 'cpf', key: document, status: to, created_at: createdAt, last_updated_at: expect.any(Number) },
      });
    }
  });

  it('answers the current key: the active one when there is one, else the latest that ended', async () => {
    const canceled = await newUser();
    await keyThrough(canceled.partnerId, canceled.document, 'registered', 'deleting', 'canceled');
    await keyThrough(canceled.partnerId, canceled.document);
    expect(await get.execute({ partner_id: canceled.partnerId, document: canceled.document })).toMatchObject({
      ok: true,
      data: { status: 'pending' },
    });

    const failed = await newUser();
    await keyThrough(failed.partnerId, failed.document, 'failed');
    expect(await get.execute({ partner_id: failed.partnerId, document: failed.document })).toMatchObject({
      ok: true,
      data: { status: 'failed' },
    });
    const second = await keyThrough(failed.partnerId, failed.document, 'registered');
    expect(await get.execute({ partner_id: failed.partnerId, document: failed.document })).toMatchObject({
      ok: true,
      data: { status: 'registered' },
    });
    // Both ended: the latest one is the user's key.
    await unitOfWork.run((tx) => pixKeys.transition(tx, failed.partnerId, second, 'registered', 'deleting'));
    await unitOfWork.run((tx) => pixKeys.transition(tx, failed.partnerId, second, 'deleting', 'canceled'));
    expect(await get.execute({ partner_id: failed.partnerId, document: failed.document })).toMatchObject({
      ok: true,
      data: { status: 'canceled' },
    });
  });

  it("is not_found for a user without a key, an unknown user and another partner's key", async () => {
    const { partnerId, document } = await newUser();
    expect(await get.execute({ partner_id: partnerId, document })).toEqual(notFound);
    expect(await get.execute({ partner_id: partnerId, document: newCpf() })).toEqual(notFound);
    await keyThrough(partnerId, document, 'registered');
    expect(await get.execute({ partner_id: testPartnerId(), document })).toEqual(notFound);
  });
});
