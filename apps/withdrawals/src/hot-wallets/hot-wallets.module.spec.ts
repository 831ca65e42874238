import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@partner/config';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { poolFor } from './hot-wallets.module';

/** The pool's one wallet (a configuration naming one key file or account). */
const signerFor = (c: WithdrawalsConfig) => poolFor(c).first.signer;

const SANDBOX_KEY = `0x${'0'.repeat(63)}1` as const;
/** Hardhat's development account #0 and #19 (test test … junk): public keys, anyone can spend from them. */
const HARDHAT_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_19_ADDRESS = '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199';

const keyFile = (key: string, mode = 0o600) => {
  const file = join(mkdtempSync(join(tmpdir(), 'signer-')), 'key');
  writeFileSync(file, `${key}\n`);
  chmodSync(file, mode);
  return file;
};

const config = (env: Record<string, string>) =>
  loadConfig(WithdrawalsConfig, {
    DATABASE_URL: 'postgresql://x@127.0.0.1/x',
    KAFKA_BROKERS: '127.0.0.1:1',
    INTERNAL_SECRET: 's'.repeat(32),
    CHAIN_RPC_URL_ETH: 'https://eth.example',
    CHAIN_RPC_URL_MATIC: 'https://matic.example',
    ...env,
  });
const production = (env: Record<string, string>) => config({ NODE_ENV: 'production', ...env });

describe('poolFor: production refuses hot wallets anyone can spend from', () => {
  it.each([
    ['the committed sandbox key', SANDBOX_KEY, /a sandbox key committed in deploy\/chains/],
    ['the second committed sandbox key', `0x${'0'.repeat(63)}2`, /a sandbox key committed in deploy\/chains/],
    ["Hardhat's development account #0", HARDHAT_0, /development account #0 of test…junk/],
  ])('refuses %s in a key file, naming HOT_WALLET_KEY_FILE', (_what, key, which) => {
    const make = () => signerFor(production({ HOT_WALLET_KEY_FILE: keyFile(key) }));
    expect(make).toThrow(/^HOT_WALLET_KEY_FILE: the hot wallet 0x[0-9a-fA-F]{40} is /);
    expect(make).toThrow(which);
    expect(make).toThrow(/refused with NODE_ENV=production/);
  });

  it("refuses a remote signer whose account is one of them (Hardhat's #19), naming REMOTE_SIGNER_ADDRESS", () => {
    const remote = { HOT_WALLET_SIGNER: 'remote', REMOTE_SIGNER_URL: 'https://signer.example', REMOTE_SIGNER_ADDRESS: HARDHAT_19_ADDRESS };
    expect(() => signerFor(production(remote))).toThrow(
      /^REMOTE_SIGNER_ADDRESS: the hot wallet 0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199 is development account #19/,
    );
  });

  it('takes a key of its own in production, and the well-known ones outside production (local chains)', () => {
    const key = generatePrivateKey();
    expect(signerFor(production({ HOT_WALLET_KEY_FILE: keyFile(key) })).address).toBe(privateKeyToAccount(key).address);
    expect(signerFor(config({ NODE_ENV: 'development', HOT_WALLET_KEY_FILE: keyFile(SANDBOX_KEY, 0o644) })).address).toBe(
      privateKeyToAccount(SANDBOX_KEY).address,
    );
  });

  it.each([0o640, 0o604, 0o620, 0o602])('refuses a key file of mode %o in production, telling the fix (chmod 600)', (mode) => {
    const file = keyFile(generatePrivateKey(), mode);
    expect(() => signerFor(production({ HOT_WALLET_KEY_FILE: file }))).toThrow(
      `HOT_WALLET_KEY_FILE ${file} may be read or written by group or others (mode 0${mode.toString(8)}): chmod 600 ${file}`,
    );
  });
});

describe('poolFor: a pool of hot wallets', () => {
  it('makes one wallet per key file, in order, and marks those HOT_WALLETS_RETIRED retired', () => {
    const [a, b] = [generatePrivateKey(), generatePrivateKey()];
    const addressB = privateKeyToAccount(b).address;
    const pool = poolFor(config({ HOT_WALLET_KEY_FILE: `${keyFile(a)},${keyFile(b)}`, HOT_WALLETS_RETIRED: addressB.toLowerCase() }));
    expect(pool.wallets.map((w) => [w.address, w.retired])).toEqual([
      [privateKeyToAccount(a).address, false],
      [addressB, true],
    ]);
    expect(pool.signing.map((w) => w.address)).toEqual([privateKeyToAccount(a).address]);
    expect(pool.signerOf(addressB.toLowerCase())).toBe(pool.wallets[1].signer);
  });

  it('refuses the same key twice', () => {
    const file = keyFile(generatePrivateKey());
    expect(() => poolFor(config({ HOT_WALLET_KEY_FILE: `${file},${file}` }))).toThrow(/is configured twice/);
  });

  it('refuses a well-known key anywhere in the pool in production', () => {
    const files = `${keyFile(generatePrivateKey())},${keyFile(HARDHAT_0)}`;
    expect(() => poolFor(production({ HOT_WALLET_KEY_FILE: files }))).toThrow(/development account #0 of test…junk/);
  });
});
