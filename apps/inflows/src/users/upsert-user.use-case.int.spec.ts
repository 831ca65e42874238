import { loadConfig } from '@partner/config';
import { newCpf, newUuid } from '@partner/testing';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaService } from '../prisma/prisma.service';
import { UpsertUserUseCase } from './upsert-user.use-case';
import { UserRepository } from './user.repository';

// Integration: the real inflows schema in PostgreSQL (npm test migrates it).
const prisma = new PrismaService(loadConfig(InflowsConfig));
const upsertUser = new UpsertUserUseCase(new UserRepository(prisma));

afterAll(() => prisma.$disconnect());

describe('UpsertUserUseCase (PostgreSQL)', () => {
  it("answers whether the user is new and the row's creation time in ISO 8601, the same on every call", async () => {
    const command = { partner_id: newUuid(), document: newCpf() };
    const first = await upsertUser.execute(command);
    const [row] = await prisma.user.findMany({ where: { partnerId: command.partner_id } });
    expect(first).toEqual({ ok: true, data: { created: true, created_at: row.createdAt.toISOString() } });
    expect(await upsertUser.execute(command)).toEqual({ ok: true, data: { created: false, created_at: row.createdAt.toISOString() } });
  });
});
