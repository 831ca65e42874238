import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

export interface HotWallet {
  network: Network;
  address: string;
  chainId: number;
  genesisHash: string;
  nextNonce: bigint;
}

interface HotWalletRow {
  network: Network;
  address: string;
  chain_id: number;
  genesis_hash: string;
  next_nonce: string;
}

const toHotWallet = (r: HotWalletRow): HotWallet => ({
  network: r.network,
  address: r.address,
  chainId: r.chain_id,
  genesisHash: r.genesis_hash,
  nextNonce: BigInt(r.next_nonce),
});

const REGISTER = statement(
  'hot_wallet_register',
  `INSERT INTO hot_wallets (network, address, chain_id, genesis_hash, next_nonce) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (network, address) DO NOTHING`,
);
const FIND = statement('hot_wallet_find', 'SELECT * FROM hot_wallets WHERE network = $1 AND address = $2');
const LOCK = statement('hot_wallet_lock', 'SELECT * FROM hot_wallets WHERE network = $1 AND address = $2 FOR UPDATE');
const ADVANCE = statement(
  'hot_wallet_advance',
  'UPDATE hot_wallets SET next_nonce = $3, updated_at = $4 WHERE network = $1 AND address = $2',
);
const PENDING = statement(
  'hot_wallet_pending',
  `SELECT network, count(*)::int AS pending FROM withdrawals WHERE state IN ('created', 'sent') GROUP BY network`,
);

/**
 * The hot wallets: the nonce allocator per (network, wallet) and the chain each was first used on. The
 * row is locked for a whole signing round, so two instances never hand out one nonce twice.
 */
@Injectable()
export class HotWalletRepository {
  constructor(private readonly db: Database) {}

  /** The wallet's row, registered with `firstNonce` (the chain's count of its transactions) the first time. */
  async register(network: Network, address: string, chainId: number, genesisHash: string, firstNonce: bigint): Promise<HotWallet> {
    await this.db.query(REGISTER, [network, address.toLowerCase(), chainId, genesisHash, firstNonce.toString()]);
    const { rows } = await this.db.query<HotWalletRow>(FIND, [network, address.toLowerCase()]);
    return toHotWallet(rows[0]);
  }

  async find(network: Network, address: string): Promise<HotWallet | null> {
    const { rows } = await this.db.query<HotWalletRow>(FIND, [network, address.toLowerCase()]);
    return rows[0] ? toHotWallet(rows[0]) : null;
  }

  /** The wallet locked until `tx` ends: this round alone hands out its nonces. */
  async lock(tx: Transaction, network: Network, address: string): Promise<HotWallet> {
    const { rows } = await tx.query<HotWalletRow>(LOCK, [network, address.toLowerCase()]);
    if (!rows[0]) throw new Error(`hot wallet ${address} on ${network} is not registered`);
    return toHotWallet(rows[0]);
  }

  async advance(tx: Transaction, network: Network, address: string, nextNonce: bigint, now: Date): Promise<void> {
    await tx.query(ADVANCE, [network, address.toLowerCase(), nextNonce.toString(), now]);
  }

  /** Withdrawals not final yet, by network. */
  async pendingByNetwork(): Promise<Map<Network, number>> {
    const { rows } = await this.db.query<{ network: Network; pending: number }>(PENDING);
    return new Map(rows.map((r) => [r.network, r.pending]));
  }
}
