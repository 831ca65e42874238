import { loadConfig } from '@partner/config';
import { newCpf, newUuid } from '@partner/testing';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaService } from '../prisma/prisma.service';
import { UserRepository } from './user.repository';

// Integration: the real inflows schema in PostgreSQL (npm test migrates it).
const prisma = new PrismaService(loadConfig(InflowsConfig));
const users = new UserRepository(prisma);

afterAll(() => prisma.$disconnect());

describe('UserRepository (PostgreSQL)', () => {
  it('stores a user once: the first upsert creates, a repeat changes nothing', async () => {
    const partnerId = newUuid();
    const document = newCpf();

    const first = await users.upsert(partnerId, document);
    const [row] = await prisma.user.findMany({ where: { partnerId, document } });
    expect(first).toEqual({ created: true, createdAt: row.createdAt });
    expect(await users.upsert(partnerId, document)).toEqual({ created: false, createdAt: row.createdAt });

    expect(await prisma.user.count({ where: { partnerId, document } })).toBe(1);
    expect(await users.exists(partnerId, document)).toBe(true);
  });

  it('creates exactly once under 20 concurrent upserts', async () => {
    const partnerId = newUuid();
    const document = newCpf();

    const results = await Promise.all(Array.from({ length: 20 }, () => users.upsert(partnerId, document)));

    expect(results.filter((r) => r.created)).toHaveLength(1);
    // The losers of the race answer the winner's row too.
    expect(new Set(results.map((r) => r.createdAt.getTime())).size).toBe(1);
    expect(await prisma.user.count({ where: { partnerId, document } })).toBe(1);
  });

  it('scopes users by partner', async () => {
    const partnerId = newUuid();
    const document = newCpf();
    await users.upsert(partnerId, document);

    expect(await users.exists(newUuid(), document)).toBe(false);
    expect(await users.exists(partnerId, newCpf())).toBe(false);
  });
});
