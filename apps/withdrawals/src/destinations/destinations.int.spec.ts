import { loadConfig } from '@partner/config';
import { addressChallenge, CreateWithdrawalCommand, PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, selectCount, selectRow, testPartnerId, withdrawalRequest } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { AccountRepository } from '../accounts/account.repository';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { fixedScreening } from '../screening/screening.spec-support';
import { createWithdrawalUseCase } from '../withdrawals/create-withdrawal.spec-support';
import { DestinationsRepository } from './destinations.repository';
import { ManageDestinationsUseCase } from './manage-destinations.use-case';

// Integration: the withdrawals schema in PostgreSQL (npm test migrates it). Each test uses a partner of its own.
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const unitOfWork = new UnitOfWork(db, { wake: () => undefined });
const accounts = new AccountRepository(db);
const destinations = new ManageDestinationsUseCase(new DestinationsRepository(db), accounts);
const create = createWithdrawalUseCase(db, unitOfWork, fixedScreening());

afterAll(() => db.close());

const by = 'ops (adm_test)';
const owner = { wallet: 'self_hosted' as const, name: 'Maria da Silva Souza', document: '52998224725', first_party: true };

async function partnerWithUser(policy: { beneficiary_required?: boolean; address_book_only?: boolean; address_cooldown_seconds?: number }) {
  const partnerId = testPartnerId();
  const document = newCpf();
  await accounts.open(partnerId, document, new Date());
  await unitOfWork.run((tx) =>
    accounts.credit(tx, { partnerId, idempotencyKey: newUuid(), document, micros: 50_000_000n, reference: 'test funds' }, new Date()),
  );
  await destinations.setPolicy({ partner_id: partnerId, ...policy, by, asked_at: new Date().toISOString() });
  return { partnerId, document };
}
const command = (partnerId: PartnerId, document: string, overrides: Partial<CreateWithdrawalCommand> = {}): CreateWithdrawalCommand => ({
  partner_id: partnerId,
  ...withdrawalRequest(document, overrides),
});
const count = (partnerId: PartnerId) => selectCount(db, 'SELECT count(*) FROM withdrawals WHERE partner_id = $1', [partnerId]);
const freshKey = () => privateKeyToAccount(generatePrivateKey());

describe("a withdrawal's destination: its owner, and the user's saved addresses (PostgreSQL)", () => {
  it('with beneficiary_required: refused without a beneficiary; one named is kept with the withdrawal; a saved owner counts', async () => {
    const { partnerId, document } = await partnerWithUser({ beneficiary_required: true });
    expect(await create.execute(command(partnerId, document))).toEqual({
      ok: false,
      error: {
        code: 'beneficiary_required',
        message: 'a beneficiary is required: name the owner of the destination (beneficiary), or save the address with its owner first',
        field: 'beneficiary',
      },
    });
    expect(await count(partnerId)).toBe(0);
    const named = await create.execute(command(partnerId, document, { beneficiary: owner }));
    if (!named.ok) throw new Error(named.error.code);
    const row = await selectRow<{ beneficiary: unknown }>(db, 'SELECT beneficiary FROM withdrawals WHERE id = $1', [named.data.id]);
    expect(row.beneficiary).toEqual(owner);
    // A saved address with its owner: the withdrawal needs no beneficiary of its own and carries the saved one.
    const address = freshKey().address;
    const vasp = { wallet: 'vasp' as const, vasp_name: 'Exchange Ltda', name: 'Ana Lima', first_party: false };
    expect(await destinations.save({ partner_id: partnerId, document, address, beneficiary: vasp })).toMatchObject({ ok: true });
    const toSaved = await create.execute(command(partnerId, document, { address }));
    if (!toSaved.ok) throw new Error(toSaved.error.code);
    expect(
      (await selectRow<{ beneficiary: unknown }>(db, 'SELECT beneficiary FROM withdrawals WHERE id = $1', [toSaved.data.id])).beneficiary,
    ).toEqual(vasp);
  });

  it('with address_book_only and a cool-down: an address not saved is refused, a saved one until its cool-down passed', async () => {
    const { partnerId, document } = await partnerWithUser({ address_book_only: true, address_cooldown_seconds: 3600 });
    const address = freshKey().address;
    expect(await create.execute(command(partnerId, document, { address }))).toMatchObject({
      ok: false,
      error: { code: 'address_not_saved', field: 'address' },
    });
    const saved = await destinations.save({ partner_id: partnerId, document, address, label: 'cold wallet', beneficiary: owner });
    expect(saved).toMatchObject({ ok: true, data: { address: address.toLowerCase(), verified: false, label: 'cold wallet' } });
    if (!saved.ok) throw new Error('refused');
    expect(saved.data.usable_from - saved.data.created_at).toBe(3600);
    expect(await create.execute(command(partnerId, document, { address }))).toMatchObject({
      ok: false,
      error: { code: 'address_cooling_down', message: expect.stringContaining('it can be paid from'), field: 'address' },
    });
    // The cool-down over (saved two hours ago): paid.
    await db.query(`UPDATE saved_addresses SET created_at = now() - interval '2 hours' WHERE partner_id = $1`, [partnerId]);
    expect((await create.execute(command(partnerId, document, { address }))).ok).toBe(true);
    expect(await destinations.list({ partner_id: partnerId, document })).toMatchObject({
      ok: true,
      data: { addresses: [{ address: address.toLowerCase() }] },
    });
    expect(await destinations.remove({ partner_id: partnerId, document, address })).toMatchObject({ ok: true });
    expect(await destinations.remove({ partner_id: partnerId, document, address })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it("keeps a proof of control only when it is the address's EIP-191 signature of the challenge", async () => {
    const { partnerId, document } = await partnerWithUser({});
    const key = freshKey();
    const signature = await key.signMessage({ message: addressChallenge(partnerId, document, key.address) });
    expect(
      await destinations.save({ partner_id: partnerId, document, address: key.address, beneficiary: owner, proof: { signature } }),
    ).toMatchObject({
      ok: true,
      data: { verified: true },
    });
    const other = freshKey();
    const forged = await other.signMessage({ message: addressChallenge(partnerId, document, key.address) });
    expect(
      await destinations.save({ partner_id: partnerId, document, address: key.address, beneficiary: owner, proof: { signature: forged } }),
    ).toEqual({
      ok: false,
      error: {
        code: 'invalid_proof',
        message: `proof.signature was not made by ${key.address.toLowerCase()} over the challenge`,
        field: 'proof.signature',
      },
    });
    expect(await destinations.save({ partner_id: partnerId, document: newCpf(), address: key.address, beneficiary: owner })).toMatchObject({
      ok: false,
      error: { code: 'user_not_found' },
    });
  });

  it('a retry of a withdrawal accepted before the policy changed answers it, not a refusal', async () => {
    const { partnerId, document } = await partnerWithUser({});
    const first = command(partnerId, document);
    const accepted = await create.execute(first);
    if (!accepted.ok) throw new Error('refused');
    await destinations.setPolicy({ partner_id: partnerId, address_book_only: true, by, asked_at: new Date().toISOString() });
    expect(await create.execute(first)).toEqual({ ok: true, data: { id: accepted.data.id, created: false } });
  });
});
