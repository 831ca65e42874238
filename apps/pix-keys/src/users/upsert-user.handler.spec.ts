import { PartnerId } from '@partner/contracts';
import { testPartnerId } from '@partner/testing';
import { UpsertUserHandler } from './upsert-user.handler';
import { UserHolder, UserRepository } from './user.repository';

/** The repository as the handler uses it: records what it was given. */
class RecordingUsers implements Pick<UserRepository, 'upsert'> {
  readonly calls: Array<{ partnerId: PartnerId; document: string; holder?: UserHolder }> = [];
  async upsert(partnerId: PartnerId, document: string, holder?: UserHolder) {
    this.calls.push({ partnerId, document, holder });
    return { created: true, createdAt: new Date('2026-11-27T00:00:00Z') };
  }
}

const partner = testPartnerId('c6b0f8f6-3f6e-4d38-9d7f-5d1c3a9b2f10');

describe('UpsertUserHandler', () => {
  it('keeps a user registered with its document alone valid, and records the name and account when given', async () => {
    const users = new RecordingUsers();
    const handler = new UpsertUserHandler(users);
    expect(await handler.handle({ partner_id: partner, document: '52998224725' })).toEqual({
      ok: true,
      data: { created: true, created_at: '2026-11-27T00:00:00.000Z' },
    });
    await handler.handle({
      partner_id: partner,
      document: '52998224725',
      name: 'Maria Souza',
      account: { ispb: '99999999', branch: '0001', number: '123', type: 'TRAN', opened_at: '2026-11-01T03:00:00.000Z' },
    });
    expect(users.calls.map((c) => c.holder)).toEqual([
      { name: undefined, account: undefined },
      {
        name: 'Maria Souza',
        account: { ispb: '99999999', branch: '0001', number: '123', type: 'TRAN', openedAt: new Date('2026-11-01T03:00:00.000Z') },
      },
    ]);
  });

  it('refuses an account whose opening date is not a date (invalid_request), storing nothing', async () => {
    const users = new RecordingUsers();
    const reply = await new UpsertUserHandler(users).handle({
      partner_id: partner,
      document: '52998224725',
      account: { ispb: '99999999', branch: '0001', number: '123', type: 'TRAN', opened_at: 'yesterday' },
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'account.opened_at' } });
    expect(users.calls).toEqual([]);
  });
});
