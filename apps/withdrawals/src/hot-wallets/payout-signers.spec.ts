import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTransaction, recoverTransactionAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { UnsignedPayout } from './payout-rail';
import { hashOf, KeyFileSigner, RemoteSigner } from './payout-signers';

const tx: UnsignedPayout = {
  chainId: 137,
  nonce: 7n,
  to: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  data: '0xa9059cbb',
  gas: 100_000n,
  maxFeePerGas: 60_000_000_000n,
  maxPriorityFeePerGas: 30_000_000_000n,
};

const keyFile = (content: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'signer-')), 'key');
  writeFileSync(file, content);
  return file;
};

describe('KeyFileSigner', () => {
  it('signs an EIP-1559 transaction of the key in the file, exactly as asked', async () => {
    const key = generatePrivateKey();
    const signer = new KeyFileSigner(keyFile(`${key}\n`));
    expect(signer.address).toBe(privateKeyToAccount(key).address);
    const raw = await signer.sign(tx);
    expect(parseTransaction(raw)).toMatchObject({
      chainId: 137,
      nonce: 7,
      to: tx.to.toLowerCase(),
      data: tx.data,
      gas: tx.gas,
      type: 'eip1559',
    });
    expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(signer.address);
    expect(hashOf(raw)).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuses a file without a key, naming the file and never its content', () => {
    const secret = 'not-a-key-but-secret-text';
    const file = keyFile(secret);
    expect(() => new KeyFileSigner(file)).toThrow(file);
    try {
      new KeyFileSigner(file);
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
    expect(() => new KeyFileSigner('/nonexistent/key')).toThrow(/HOT_WALLET_KEY_FILE \/nonexistent\/key cannot be read/);
  });
});

describe('RemoteSigner (eth_signTransaction over JSON-RPC, as Web3Signer serves it)', () => {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  let server: Server;
  let url: string;
  /** What the signer does to the transaction it was asked to sign: nothing, or a change. */
  let tamper: (t: Record<string, unknown>) => Record<string, unknown> = (t) => t;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: Array<Record<string, string>> };
        const p = tamper(params[0]) as Record<string, string>;
        void account
          .signTransaction({
            type: 'eip1559',
            chainId: Number(p.chainId),
            nonce: Number(p.nonce),
            to: p.to as `0x${string}`,
            data: p.data as `0x${string}`,
            gas: BigInt(p.gas),
            maxFeePerGas: BigInt(p.maxFeePerGas),
            maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas),
          })
          .then((raw) =>
            res.end(
              JSON.stringify(
                method === 'eth_signTransaction'
                  ? { jsonrpc: '2.0', id, result: raw }
                  : { jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } },
              ),
            ),
          );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('returns what the signer signed, for the configured account', async () => {
    tamper = (t) => t;
    const raw = await new RemoteSigner(url, account.address, 2_000).sign(tx);
    expect(parseTransaction(raw)).toMatchObject({ nonce: 7, to: tx.to.toLowerCase(), maxFeePerGas: tx.maxFeePerGas });
  });

  it('refuses a signed transaction that is not the one asked for (another destination)', async () => {
    tamper = (t) => ({ ...t, to: '0x1111111111111111111111111111111111111111' });
    await expect(new RemoteSigner(url, account.address, 2_000).sign(tx)).rejects.toThrow(/another transaction/);
  });

  it('refuses a signature by another account than REMOTE_SIGNER_ADDRESS', async () => {
    tamper = (t) => t;
    await expect(new RemoteSigner(url, privateKeyToAccount(generatePrivateKey()).address, 2_000).sign(tx)).rejects.toThrow(
      /REMOTE_SIGNER_ADDRESS/,
    );
  });
});
