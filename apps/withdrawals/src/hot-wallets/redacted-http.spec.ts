import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { loadConfig } from '@partner/config';
import { maskLogArguments, startTracing, stopTracing } from '@partner/tracing';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { EvmPayoutRail } from './evm-payout-rail';
import { HotWalletPool } from './hot-wallet-pool';
import { PayoutMetrics } from '../payouts/payout-metrics';
import { PayoutRoundsService } from '../payouts/payout-rounds.service';
import { RemoteSigner } from './payout-signers';
import { railsFor } from './hot-wallets.module';

// A node provider's URL carries its credentials in the user, the path and the query: none may show.
const SECRETS = ['rpc-user', 'rpc-pass', 'PATHKEY7f3a9c2e1b', 'QUERYKEY55d0e8'];
let server: Server;
let secretUrl: string;
/** Everything a rejected call leaves behind: the error's message, stack, fields and causes. */
const everything = (error: unknown) => {
  const seen: string[] = [];
  for (let e = error as Error | undefined; e; e = e.cause as Error | undefined)
    seen.push(
      e.message,
      String(e.stack),
      JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    );
  return seen.join('\n');
};
const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

beforeAll(async () => {
  // A provider refusing the key, as Alchemy and Infura do: 401 and a JSON body.
  server = createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid api key"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  secretUrl = `http://rpc-user:rpc-pass@127.0.0.1:${port}/v2/PATHKEY7f3a9c2e1b?apikey=QUERYKEY55d0e8`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const rail = () =>
  new EvmPayoutRail({
    network: 'ETH',
    rpcUrl: secretUrl,
    token: `0x${'1'.repeat(40)}`,
    finality: 2,
    maxHeadAgeS: 60,
    minPriorityFeeWei: 1n,
    timeoutMs: 2_000,
  });

describe('a node URL with credentials never shows in errors, log lines or spans', () => {
  it("a rail's failed call throws an error that names the host, not the credentials", async () => {
    const error = await rail()
      .chainId()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('127.0.0.1');
    expectNoSecret(everything(error));
  });

  it('so does a call to a node that does not answer at all (closed port)', async () => {
    const closed = new EvmPayoutRail({
      network: 'ETH',
      rpcUrl: 'http://127.0.0.1:9/v3/PATHKEY7f3a9c2e1b',
      token: `0x${'1'.repeat(40)}`,
      finality: 2,
      maxHeadAgeS: 60,
      minPriorityFeeWei: 1n,
      timeoutMs: 2_000,
    });
    const error = await closed.minedNonce(`0x${'2'.repeat(40)}`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expectNoSecret(everything(error));
  });

  it("a remote signer's failure too", async () => {
    const signer = new RemoteSigner(secretUrl, `0x${'2'.repeat(40)}`, 2_000);
    const error = await signer
      .sign({ chainId: 1, nonce: 0n, to: `0x${'3'.repeat(40)}`, data: '0x', gas: 1n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expectNoSecret(everything(error));
  });

  it("the payouts' warning line, and the error as the logger writes it", async () => {
    const config = loadConfig(WithdrawalsConfig, {
      DATABASE_URL: 'postgresql://x@127.0.0.1/x',
      KAFKA_BROKERS: '127.0.0.1:1',
      HOT_WALLET_KEY_FILE: '/k',
      CHAIN_RPC_URL_ETH: secretUrl,
      CHAIN_RPC_URL_MATIC: secretUrl,
      CHAIN_RPC_TIMEOUT_MS: '2000',
    });
    const warned: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((line: unknown) => void warned.push(String(line)));
    try {
      const rounds = new PayoutRoundsService(
        config,
        {} as never,
        {} as never,
        {} as never,
        {} as never,
        {} as never,
        new PayoutMetrics(),
        railsFor(config),
        new HotWalletPool([
          {
            address: `0x${'2'.repeat(40)}`,
            signer: { address: `0x${'2'.repeat(40)}`, sign: () => Promise.reject(new Error('unused')) },
            retired: false,
          },
        ]),
      );
      await rounds.checkChains();
    } finally {
      warn.mockRestore();
    }
    expect(warned).toEqual(
      expect.arrayContaining([expect.stringMatching(/^payouts on ETH wait: its node at CHAIN_RPC_URL_ETH does not answer/)]),
    );
    expectNoSecret(warned.join('\n'));
    // The logger's own masking (every pino line goes through it) hides the URL wherever a caller put it.
    expectNoSecret(
      JSON.stringify(maskLogArguments([{ url: secretUrl, err: new Error(`calling ${secretUrl} failed`) }, `to ${secretUrl}`])),
    );
  });

  it("the HTTP client's span of the call (url.full, url.path, url.query) and its error", async () => {
    const exported: tracing.ReadableSpan[] = [];
    trace.disable();
    startTracing('withdrawals', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, [
      new tracing.SimpleSpanProcessor({
        export: (spans, done) => (exported.push(...spans), done({ code: 0 })),
        shutdown: async () => undefined,
      }),
    ]);
    try {
      await trace.getTracer('spec').startActiveSpan('round', async (span) => {
        await rail()
          .chainId()
          .catch((error: Error) => span.recordException(error));
        span.setAttribute('rpc.url', secretUrl);
        span.end();
      });
    } finally {
      await stopTracing();
      trace.disable();
    }
    const client = exported.find((s) => s.attributes['url.full'] !== undefined);
    expect(client?.attributes['url.full']).toMatch(/^http:\/\/(…@)?127\.0\.0\.1:\d+\/…$/);
    const recorded = JSON.stringify(exported.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    expect(recorded).toContain('127.0.0.1');
    expectNoSecret(recorded);
  });
});
