import { loadConfig } from '@partner/config';
import { newCpf, newUuid } from '@partner/testing';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PrismaService } from '../prisma/prisma.service';
import { UpsertUserUseCase } from './upsert-user.use-case';
import { UserRepository } from './user.repository';

// Integration: the real pix_keys schema in PostgreSQL (npm test migrates it).
const prisma = new PrismaService(loadConfig(PixKeysConfig));
const users = new UserRepository(prisma);
const upsertUser = new UpsertUserUseCase(users);

afterAll(() => prisma.$disconnect());

describe('UpsertUserUseCase (PostgreSQL)', () => {
  it("stores a user once: created the first time, known afterwards, always with the row's creation time", async () => {
    const command = { partner_id: newUuid(), document: newCpf() };
    const first = await upsertUser.execute(command);
    const [row] = await prisma.user.findMany({ where: { partnerId: command.partner_id } });
    expect(first).toEqual({ ok: true, data: { created: true, created_at: row.createdAt.toISOString() } });
    expect(await upsertUser.execute(command)).toEqual({ ok: true, data: { created: false, created_at: row.createdAt.toISOString() } });
    expect(await prisma.user.count({ where: { partnerId: command.partner_id } })).toBe(1);
  });

  it('keeps one row when the same user arrives many times at once, every reply with its creation time', async () => {
    const command = { partner_id: newUuid(), document: newCpf() };
    const replies = await Promise.all(Array.from({ length: 10 }, () => upsertUser.execute({ ...command })));
    expect(replies.filter((r) => r.ok && r.data.created)).toHaveLength(1);
    const [row] = await prisma.user.findMany({ where: { partnerId: command.partner_id } });
    for (const reply of replies) expect(reply).toMatchObject({ ok: true, data: { created_at: row.createdAt.toISOString() } });
    expect(await prisma.user.count({ where: { partnerId: command.partner_id } })).toBe(1);
  });

  it('scopes users by partner: the same CPF under another partner is another user', async () => {
    const document = newCpf();
    await upsertUser.execute({ partner_id: newUuid(), document });
    const other = newUuid();
    expect(await users.exists(other, document)).toBe(false);
    expect(await upsertUser.execute({ partner_id: other, document })).toMatchObject({ ok: true, data: { created: true } });
  });
});
