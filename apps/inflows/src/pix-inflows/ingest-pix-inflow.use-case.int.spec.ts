import { loadConfig } from '@partner/config';
import { IngestPixInflowCommand, Topics } from '@partner/contracts';
import { newCpf, outboxEventsOf, testPartnerId, prismaForSpecs } from '@partner/testing';
import { Database, UnitOfWork } from '@partner/db';
import { DB_SCHEMA } from '../database/db-schema';
import { PrismaClient } from '../generated/prisma-for-specs/client';
import { InflowsConfig } from '../config/inflows.config';
import { newEndToEndId } from '../spi-simulator/end-to-end-id';
import { completeSender } from '../spi-simulator/sender-details';
import { UserRepository } from '../users/user.repository';
import { IngestPixInflowUseCase } from './ingest-pix-inflow.use-case';
import { PixInflowRepository } from './pix-inflow.repository';

// Integration: the real inflows schema in PostgreSQL. Each test uses a partner of its own.
const db = new Database(loadConfig(InflowsConfig), DB_SCHEMA);
const prisma = prismaForSpecs(PrismaClient, db);
const inflows = new PixInflowRepository(db);
const users = new UserRepository(db);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const ingest = new IngestPixInflowUseCase(unitOfWork, inflows);

afterAll(() => prisma.$disconnect().then(() => db.close()));

async function notification(overrides: Partial<IngestPixInflowCommand> = {}): Promise<IngestPixInflowCommand> {
  const partnerId = testPartnerId();
  const document = newCpf();
  await users.upsert(partnerId, document);
  const sender = completeSender({});
  return {
    partner_id: partnerId,
    document,
    end_to_end_id: newEndToEndId(sender.sender_bank_code, new Date()),
    amount_cents: 5_000,
    method: 'dict',
    ...sender,
    status: 'processing',
    ...overrides,
  };
}

async function statesOf(partnerId: string): Promise<string[]> {
  const rows = await prisma.outboxMessage.findMany({ where: { topic: Topics.PixInStateChanged }, orderBy: { id: 'asc' } });
  return outboxEventsOf(Topics.PixInStateChanged, rows, partnerId).map((e) => e.state);
}

describe('IngestPixInflowUseCase (PostgreSQL)', () => {
  it('records at the notified status, moves along the table with one event per change, and leaves repeats alone', async () => {
    const n = await notification();
    expect(await ingest.execute(n)).toEqual({ ok: true, data: { end_to_end_id: n.end_to_end_id, status: 'processing', created: true } });
    expect(await ingest.execute(n)).toEqual({ ok: true, data: { end_to_end_id: n.end_to_end_id, status: 'processing', created: false } });
    for (const status of ['approved', 'success', 'approved', 'credited'] as const) await ingest.execute({ ...n, status });
    expect(await statesOf(n.partner_id)).toEqual(['processing', 'approved', 'success', 'credited']);
    expect(await ingest.execute({ ...n, status: 'processing' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_transition', message: 'a pix inflow cannot move from credited to processing' },
    });
  });

  it('refuses another payload for the id, an unknown user, and another partner taking the id; records nothing', async () => {
    const n = await notification();
    await ingest.execute(n);
    expect(await ingest.execute({ ...n, amount_cents: 1 })).toMatchObject({ ok: false, error: { code: 'end_to_end_id_conflict' } });
    const other = await notification();
    expect(await ingest.execute({ ...n, partner_id: other.partner_id, document: other.document })).toMatchObject({
      ok: false,
      error: { code: 'end_to_end_id_conflict' },
    });
    expect(await ingest.execute({ ...other, document: newCpf() })).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect(await statesOf(other.partner_id)).toEqual([]);
  });
});
