import { Injectable } from '@nestjs/common';
import { Network } from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';

export interface HotWallet {
  network: Network;
  address: string;
  chainId: number;
  genesisHash: string;
  nextNonce: bigint;
  /** The chain's block when it was registered (null: registered before this was kept). */
  registeredBlock: bigint | null;
  /** The last block the scan for outside transfers has read (null: none yet). */
  scannedBlock: bigint | null;
  /** The open nonce_ahead finding that stopped its signing, and its detail (null: it signs). */
  stopped: { findingId: number; detail: string } | null;
}

interface HotWalletRow {
  network: Network;
  address: string;
  chain_id: number;
  genesis_hash: string;
  next_nonce: string;
  registered_block: string | null;
  scanned_block: string | null;
  stopped_by: string | null;
  stopped_detail: string | null;
}

const toHotWallet = (r: HotWalletRow): HotWallet => ({
  network: r.network,
  address: r.address,
  chainId: r.chain_id,
  genesisHash: r.genesis_hash,
  nextNonce: BigInt(r.next_nonce),
  registeredBlock: r.registered_block === null ? null : BigInt(r.registered_block),
  scannedBlock: r.scanned_block === null ? null : BigInt(r.scanned_block),
  stopped: r.stopped_by === null ? null : { findingId: Number(r.stopped_by), detail: r.stopped_detail ?? '' },
});

const REGISTER = statement(
  'hot_wallet_register',
  `INSERT INTO hot_wallets (network, address, chain_id, genesis_hash, next_nonce, registered_block) VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (network, address) DO NOTHING`,
);
const WITH_STOP = `SELECT h.*, f.detail AS stopped_detail FROM hot_wallets h LEFT JOIN reconciliation_findings f ON f.id = h.stopped_by
   WHERE h.network = $1 AND h.address = $2`;
const FIND = statement('hot_wallet_find', WITH_STOP);
const LOCK = statement('hot_wallet_lock', `${WITH_STOP} FOR UPDATE OF h`);
const STOP = statement('hot_wallet_stop', 'UPDATE hot_wallets SET stopped_by = $3, updated_at = $4 WHERE network = $1 AND address = $2');
/** Lifts the stop a finding put, taking the chain's count of the wallet's transactions as its next nonce. */
const LIFT = statement(
  'hot_wallet_lift',
  'UPDATE hot_wallets SET stopped_by = NULL, next_nonce = greatest(next_nonce, $2::bigint), updated_at = $3 WHERE stopped_by = $1',
);
const SCANNED = statement('hot_wallet_scanned', 'UPDATE hot_wallets SET scanned_block = $3 WHERE network = $1 AND address = $2');
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
  async register(
    network: Network,
    address: string,
    chainId: number,
    genesisHash: string,
    firstNonce: bigint,
    block: bigint,
  ): Promise<HotWallet> {
    await this.db.query(REGISTER, [network, address.toLowerCase(), chainId, genesisHash, firstNonce.toString(), block.toString()]);
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

  /** Stops signing from the wallet until `findingId` is resolved. */
  async stop(tx: Transaction, network: Network, address: string, findingId: number, now: Date): Promise<void> {
    await tx.query(STOP, [network, address.toLowerCase(), findingId, now]);
  }

  /** Lifts the stop `findingId` put (if any), the wallet's next nonce at least `minedNonce`. */
  async lift(tx: Transaction, findingId: number, minedNonce: bigint, now: Date): Promise<void> {
    await tx.query(LIFT, [findingId, minedNonce.toString(), now]);
  }

  /** The scan for outside transfers has read up to `block`. */
  async scanned(network: Network, address: string, block: bigint): Promise<void> {
    await this.db.query(SCANNED, [network, address.toLowerCase(), block.toString()]);
  }

  /** Withdrawals not final yet, by network. */
  async pendingByNetwork(): Promise<Map<Network, number>> {
    const { rows } = await this.db.query<{ network: Network; pending: number }>(PENDING);
    return new Map(rows.map((r) => [r.network, r.pending]));
  }
}
