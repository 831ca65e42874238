import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { Address } from './payout-rail';

/** Hardhat's (and Anvil's) development mnemonic: its accounts are funded on every local node and emptied on every mainnet. */
const DEVELOPMENT_MNEMONIC = 'test test test test test test test test test test test junk';
/** deploy/chains/sandbox-hot-wallet.key and sandbox-hot-wallet-2.key, committed: private keys 1 and 2. */
const SANDBOX_KEYS = [`0x${'0'.repeat(63)}1`, `0x${'0'.repeat(63)}2`] as const;

let known: Map<string, string> | undefined;

/**
 * Wallets whose private key is public, by lower-case address: the sandbox's committed keys and the 20
 * accounts of the development mnemonic (derived here rather than pasted; about half a second, once).
 */
export function wellKnownWallets(): ReadonlyMap<string, string> {
  if (!known) {
    known = new Map(
      SANDBOX_KEYS.map((key) => [privateKeyToAccount(key).address.toLowerCase(), 'a sandbox key committed in deploy/chains']),
    );
    for (let i = 0; i < 20; i++)
      known.set(
        mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex: i }).address.toLowerCase(),
        `development account #${i} of test…junk`,
      );
  }
  return known;
}

/**
 * Refuses a hot wallet anyone can spend from (production only): funds sent to it are swept by bots
 * within seconds. `setting` is what the operator changes.
 */
export function refuseWellKnownWallet(address: Address, setting: string): void {
  const which = wellKnownWallets().get(address.toLowerCase());
  if (which)
    throw new Error(
      `${setting}: the hot wallet ${address} is ${which}, whose private key is public; refused with NODE_ENV=production: use a key of your own`,
    );
}
