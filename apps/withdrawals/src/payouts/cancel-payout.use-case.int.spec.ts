import { loadConfig } from '@partner/config';
import { PartnerId } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { newCpf, newUuid, testPartnerId, VALID_ADDRESS, whilePayoutRoundHeld } from '@partner/testing';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { DB_SCHEMA } from '../database/db-schema';
import { CancelPayoutUseCase } from './cancel-payout.use-case';
import { PayoutState } from './payout-state';
import { PayoutRepository } from './payout.repository';

// Integration: the operator's cancel on the real withdrawals schema (npm test migrates it). The payouts are
// written straight into the table, each from a wallet of no pool (a fresh address): no payout round follows
// them, and they are removed once done. Only the state moves here; signing the cancel is the round's
// (track-payouts.use-case.ts).
const config = loadConfig(WithdrawalsConfig, process.env);
const db = new Database(config, DB_SCHEMA);
const cancel = new CancelPayoutUseCase(new UnitOfWork(db, { wake: () => undefined }), new PayoutRepository(db));
const partnerId: PartnerId = testPartnerId();
const BY = 'spec (adm_spec)';

afterAll(async () => {
  await db.query('DELETE FROM withdrawals.withdrawals WHERE partner_id = $1', [partnerId]);
  await db.close();
});

const freshWallet = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase();

/** A withdrawal on MATIC whose payout is `payoutState`: holding nonce 7 of a fresh wallet unless queued. */
async function seed(payoutState: PayoutState): Promise<{ id: number; wallet: string | null }> {
  const holdsNonce = payoutState !== 'queued';
  const wallet = holdsNonce ? freshWallet() : null;
  const state = payoutState === 'queued' || payoutState === 'signed' ? 'created' : 'sent';
  const txHash = state === 'sent' ? `0x${'ab'.repeat(32)}` : null;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO withdrawals.withdrawals (partner_id, document, idempotency_key, fingerprint, address, network, fee_choice, amount_micros,
       fee_micros, state, created_at, updated_at, payout_state, from_address, nonce, tx_hash, block_number, block_hash)
     VALUES ($1, $2, $3, repeat('0', 64), $4, 'MATIC', 'LOW', 10000, 20000, $5, now(), now(), $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      partnerId,
      newCpf(),
      newUuid(),
      VALID_ADDRESS,
      state,
      payoutState,
      wallet,
      holdsNonce ? '7' : null,
      txHash,
      payoutState === 'mined' ? '100' : null,
      payoutState === 'mined' ? `0x${'cd'.repeat(32)}` : null,
    ],
  );
  return { id: rows[0].id, wallet };
}

const payoutOf = async (id: number) =>
  (
    await db.query<{ state: string; payout_state: string; payout_reason: string | null; nonce: string | null }>(
      'SELECT state, payout_state, payout_reason, nonce FROM withdrawals.withdrawals WHERE id = $1',
      [id],
    )
  ).rows[0];

const cancelOf = (withdrawal_id: number, note = 'the node keeps refusing it') =>
  cancel.execute({ withdrawal_id, note, by: BY, asked_at: new Date().toISOString() });

describe('CancelPayoutUseCase (PostgreSQL)', () => {
  it.each(['signed', 'broadcast'] as const)(
    'a %s payout becomes cancelling, with who and why; its nonce, wallet and partner-facing state stay',
    async (payoutState) => {
      const { id, wallet } = await seed(payoutState);
      const before = await payoutOf(id);
      const reply = await cancelOf(id);
      expect(reply).toEqual({
        ok: true,
        data: {
          withdrawal_id: id,
          network: 'MATIC',
          state: before.state,
          payout_state: 'cancelling',
          reason: `${BY}: the node keeps refusing it`,
          from_address: wallet,
          nonce: 7,
          tx_hash: payoutState === 'broadcast' ? `0x${'ab'.repeat(32)}` : null,
        },
      });
      expect(await payoutOf(id)).toEqual({
        state: before.state,
        payout_state: 'cancelling',
        payout_reason: `${BY}: the node keeps refusing it`,
        nonce: '7',
      });
    },
  );

  it('a payout mined already, or cancelling already, is invalid_transition; nothing moves', async () => {
    const mined = await seed('mined');
    expect(await cancelOf(mined.id)).toEqual({
      ok: false,
      error: {
        code: 'invalid_transition',
        message: `withdrawal ${mined.id}'s payout is mined: only a signed payout not yet mined can be cancelled`,
      },
    });
    expect(await payoutOf(mined.id)).toMatchObject({ payout_state: 'mined', payout_reason: null });

    const twice = await seed('signed');
    expect(await cancelOf(twice.id, 'first')).toMatchObject({ ok: true });
    expect(await cancelOf(twice.id, 'second')).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    expect(await payoutOf(twice.id)).toMatchObject({ payout_state: 'cancelling', payout_reason: `${BY}: first` });
  });

  it('a queued payout (no nonce yet) is invalid_transition', async () => {
    // Held while it exists: no payout round of MATIC signs this row meanwhile (it has no hold behind it).
    await whilePayoutRoundHeld(db, 'MATIC', async () => {
      const queued = await seed('queued');
      try {
        expect(await cancelOf(queued.id)).toEqual({
          ok: false,
          error: {
            code: 'invalid_transition',
            message: `withdrawal ${queued.id}'s payout is queued: only a signed payout not yet mined can be cancelled`,
          },
        });
        expect(await payoutOf(queued.id)).toMatchObject({ payout_state: 'queued', nonce: null });
      } finally {
        await db.query('DELETE FROM withdrawals.withdrawals WHERE id = $1', [queued.id]);
      }
    });
  });

  it("a withdrawal that does not exist is not_found, an id past the column's integer range too (the path takes any safe integer)", async () => {
    expect(await cancelOf(2_000_000_000)).toEqual({ ok: false, error: { code: 'not_found', message: 'no withdrawal 2000000000' } });
    expect(await cancelOf(52_998_224_725)).toEqual({ ok: false, error: { code: 'not_found', message: 'no withdrawal 52998224725' } });
    expect(await cancelOf(Number.MAX_SAFE_INTEGER)).toEqual({
      ok: false,
      error: { code: 'not_found', message: `no withdrawal ${Number.MAX_SAFE_INTEGER}` },
    });
  });
});
