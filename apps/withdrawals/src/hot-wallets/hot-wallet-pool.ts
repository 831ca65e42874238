import { Address, PayoutSigner } from './payout-rail';

/** A wallet of the pool: its signer, and whether it is retired (no new withdrawals, what it signed still followed). */
export interface PoolWallet {
  address: Address;
  signer: PayoutSigner;
  retired: boolean;
}

/**
 * The hot wallets the configuration names (HOT_WALLET_KEY_FILE or REMOTE_SIGNER_ADDRESS, comma-separated),
 * each one nonce lane per network. A wallet the books know that is no longer configured is followed by
 * address (its stored transactions broadcast, receipts read) but cannot be re-signed: see `signerOf`.
 */
export class HotWalletPool {
  private readonly byAddress: ReadonlyMap<string, PoolWallet>;

  constructor(readonly wallets: readonly PoolWallet[]) {
    if (wallets.length === 0) throw new Error('the hot wallet pool is empty');
    const seen = new Map<string, PoolWallet>();
    for (const w of wallets) {
      if (seen.has(w.address.toLowerCase())) throw new Error(`hot wallet ${w.address} is configured twice`);
      seen.set(w.address.toLowerCase(), w);
    }
    this.byAddress = seen;
  }

  /** Wallets given new withdrawals. */
  get signing(): PoolWallet[] {
    return this.wallets.filter((w) => !w.retired);
  }

  /** The signer of `address`, or undefined when its key is no longer configured. */
  signerOf(address: string): PayoutSigner | undefined {
    return this.byAddress.get(address.toLowerCase())?.signer;
  }

  isRetired(address: string): boolean {
    return this.byAddress.get(address.toLowerCase())?.retired ?? true;
  }

  /** The first wallet: the one a caller that needs a single wallet (a spec) uses. */
  get first(): PoolWallet {
    return this.wallets[0];
  }
}

export const HOT_WALLET_POOL = Symbol('HOT_WALLET_POOL');

/** A comma-separated setting as a list (blanks dropped). */
export const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
