import { readFileSync, statSync } from 'node:fs';
import { createClient, isHex, keccak256, numberToHex, parseTransaction, recoverTransactionAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Address, Hex, PayoutSigner, UnsignedPayout } from './payout-rail';
import { redactedHttp } from './redacted-http';

/**
 * Signs with a private key read once from a file (HOT_WALLET_KEY_FILE: a Compose secret in production,
 * a git-ignored file in development). The key stays inside viem's account: never logged, never in an error.
 */
export class KeyFileSigner implements PayoutSigner {
  readonly address: Address;
  private readonly account: ReturnType<typeof privateKeyToAccount>;

  /** `privateFileOnly`: refuse a file that group or others may read or write (production). */
  constructor(file: string, { privateFileOnly = false } = {}) {
    let key: string;
    try {
      const mode = statSync(file).mode & 0o777;
      // Checked before reading: the key of a file others can read is as good as leaked.
      if (privateFileOnly && (mode & 0o077) !== 0)
        throw new Error(
          `HOT_WALLET_KEY_FILE ${file} may be read or written by group or others (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${file} (its owner alone reads it)`,
        );
      key = readFileSync(file, 'utf8').trim();
    } catch (error) {
      if (!(error as NodeJS.ErrnoException).code) throw error;
      throw new Error(`HOT_WALLET_KEY_FILE ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    // The message names the file, never what is in it.
    if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`HOT_WALLET_KEY_FILE ${file} does not hold a private key (0x + 64 hex digits)`);
    this.account = privateKeyToAccount(key as Hex);
    this.address = this.account.address;
  }

  sign(tx: UnsignedPayout): Promise<Hex> {
    return this.account.signTransaction({ type: 'eip1559', value: 0n, ...tx, nonce: Number(tx.nonce) });
  }
}

/**
 * Signs through a remote signer's `eth_signTransaction` (Web3Signer, a KMS-backed signer): the key never
 * reaches this process. The answer is checked: a signed EIP-1559 transaction (0x02…), never broadcast here.
 */
export class RemoteSigner implements PayoutSigner {
  private readonly clients = new Map<number, ReturnType<typeof createClient>>();
  private readonly fallback: ReturnType<typeof createClient>;

  /**
   * `url`: the signer; `byChainId`: another signer for some chain ids (a signer such as Web3Signer is
   * started for one chain id: one per network, then).
   */
  constructor(
    url: string,
    readonly address: Address,
    timeoutMs: number,
    byChainId: Record<number, string> = {},
  ) {
    const client = (to: string) => createClient({ transport: redactedHttp(to, { timeout: timeoutMs, retryCount: 0 }) });
    this.fallback = client(url);
    for (const [chainId, to] of Object.entries(byChainId)) this.clients.set(Number(chainId), client(to));
  }

  async sign(tx: UnsignedPayout): Promise<Hex> {
    const signer = this.clients.get(tx.chainId) ?? this.fallback;
    const raw = await signer.request<{
      Method: 'eth_signTransaction';
      Parameters: [Record<string, string>];
      ReturnType: Hex;
    }>({
      method: 'eth_signTransaction',
      params: [
        {
          from: this.address,
          to: tx.to,
          data: tx.data,
          value: '0x0',
          type: '0x2',
          chainId: numberToHex(tx.chainId),
          nonce: numberToHex(tx.nonce),
          gas: numberToHex(tx.gas),
          maxFeePerGas: numberToHex(tx.maxFeePerGas),
          maxPriorityFeePerGas: numberToHex(tx.maxPriorityFeePerGas),
        },
      ],
    });
    if (typeof raw !== 'string' || !isHex(raw) || !raw.startsWith('0x02'))
      throw new Error('the remote signer answered no signed EIP-1559 transaction');
    // What was signed must be what was asked, by this account: a signer that changed a field is refused.
    const signed = parseTransaction(raw);
    const same =
      signed.chainId === tx.chainId &&
      signed.nonce === Number(tx.nonce) &&
      signed.to?.toLowerCase() === tx.to.toLowerCase() &&
      signed.data === tx.data &&
      (signed.value ?? 0n) === 0n &&
      signed.gas === tx.gas &&
      signed.maxFeePerGas === tx.maxFeePerGas &&
      signed.maxPriorityFeePerGas === tx.maxPriorityFeePerGas;
    if (!same) throw new Error('the remote signer signed another transaction than the one asked');
    const by = await recoverTransactionAddress({
      serializedTransaction: raw as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'],
    });
    if (by.toLowerCase() !== this.address.toLowerCase()) throw new Error(`the remote signer signed as ${by}, not REMOTE_SIGNER_ADDRESS`);
    return raw;
  }
}

/** A raw transaction's hash (what every node names it by). */
export const hashOf = (raw: Hex): Hex => keccak256(raw);
