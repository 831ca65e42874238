/**
 * `npm run bench:auth-flood` (or `npm run bench -- --auth-flood`): what a flood of made-up API keys does
 * to an honest partner. The gateway as built (dist/), in a process of its own on its own database, with
 * its defaults for failed authentication (API_KEY_NEGATIVE_CACHE_MS, AUTH_FAILURES_*) and its services
 * answered at once in its process (the gateway is what a flood of keys hits); an honest partner reads its
 * feed (GET /partner/v1/events) in a closed loop, first alone, then while another process floods the same
 * route with a fresh made-up key on every request, from the same address (the worst case: one proxy in
 * front). Not a test: it prints both p99s and their ratio. See README.md next to this file.
 *
 *   npm run bench:auth-flood
 *   npm run bench:auth-flood -- --no-build --seconds 6 --flood-connections 480
 *
 * Options: --seconds S (each phase, default 8), --honest-connections N (default 4), --flood-connections N
 * (default 480: ten times the 48 of the measurement in ADR 0016), --no-build.
 * Port and database (environment): AUTH_FLOOD_GATEWAY_PORT (24000), AUTH_FLOOD_DATABASE_URL
 * (partner_bench_auth_flood, dropped first). Results: .cache/bench/auth-flood.json; the gateway's log in
 * .cache/bench/auth-flood-gateway.log.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { repoRoot } from '../lib/services';
import { migrate, recreateDatabase } from '../stack/stack';
import { buildWorkspace } from '../lib/build-stamp';

const root = repoRoot();
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUTE = '/partner/v1/events?limit=1';

interface PhaseResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 200, by status. */
  failures: Record<string, number>;
}

/** `connections` loops, each sending the next request as soon as the last is answered, for `seconds`. */
async function closedLoop(
  url: string,
  connections: number,
  seconds: number,
  headers: () => Record<string, string>,
): Promise<PhaseResult & { statuses: Record<string, number> }> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        try {
          const res = await pool.request({ method: 'GET', path: ROUTE, headers: headers() });
          await res.body.dump();
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        } catch (error) {
          const name = (error as Error).name;
          statuses[name] = (statuses[name] ?? 0) + 1;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => +(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(1);
  const failures = Object.fromEntries(Object.entries(statuses).filter(([s]) => s !== '200'));
  return { requests: latencies.length, p50Ms: at(0.5), p99Ms: at(0.99), failures, statuses };
}

/** The flooding process: made-up keys, a fresh one per request; prints its answers' statuses as JSON. */
async function floodWorker(): Promise<void> {
  const result = await closedLoop(arg('url', ''), Number(arg('connections', '480')), Number(arg('seconds', '8')), () => ({
    'x-api-key': `pk_live_${randomBytes(32).toString('base64url')}`,
  }));
  process.stdout.write(JSON.stringify({ requests: result.requests, statuses: result.statuses }));
}

function startFlood(url: string, connections: number, seconds: number): Promise<{ requests: number; statuses: Record<string, number> }> {
  const child = spawn(
    join(root, 'node_modules/.bin/tsx'),
    [__filename, '--flood-worker', '--url', url, '--connections', String(connections), '--seconds', String(seconds)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`flood worker exited with ${code}`)))),
  );
}

/**
 * The gateway under test, in a process of its own: the built gateway (dist/, as deployed) on its own
 * database, its services replaced by a bus that answers every request at once (an empty feed page), so
 * what is measured is the gateway's own work: authentication, the rate limit, routing, the answer.
 */
async function serveGateway(): Promise<void> {
  require('reflect-metadata');
  // The built modules, not the sources: tsx does not emit the decorator metadata Nest's injection reads.
  const dist = <T>(path: string): T => require(join(root, 'dist', path)) as T;
  const { createGatewayApp } = dist<{
    createGatewayApp: (config: unknown, options: unknown) => Promise<{ listen(o: unknown): Promise<unknown> }>;
  }>('apps/gateway/src/gateway-app.js');
  const { GatewayConfig } = dist<{ GatewayConfig: new () => unknown }>('apps/gateway/src/config/gateway.config.js');
  const { loadConfig } = dist<{ loadConfig: (c: unknown, env: NodeJS.ProcessEnv) => { PORT: number } }>('libs/config/src/index.js');
  const config = loadConfig(GatewayConfig, process.env);
  const bus = { request: async () => ({ ok: true, data: { events: [], next_cursor: null } }) };
  const app = await createGatewayApp(config, { logs: false, overrideBus: bus });
  await app.listen({ port: config.PORT, host: '127.0.0.1' });
}

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '8'));
  const honestConnections = Number(arg('honest-connections', '4'));
  const floodConnections = Number(arg('flood-connections', '480'));
  const port = Number(process.env.AUTH_FLOOD_GATEWAY_PORT ?? 24000);
  const databaseUrl = process.env.AUTH_FLOOD_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_auth_flood';
  const adminKey = randomBytes(24).toString('base64url');
  const url = `http://127.0.0.1:${port}`;
  if (!process.argv.includes('--no-build')) buildWorkspace(root);
  await recreateDatabase(databaseUrl);
  migrate(databaseUrl);
  const logDir = join(root, '.cache', 'bench');
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, 'auth-flood-gateway.log'));
  // The gateway's defaults for failed authentication (API_KEY_NEGATIVE_CACHE_MS, AUTH_FAILURES_*) are what is measured.
  const gateway = spawn(join(root, 'node_modules/.bin/tsx'), [__filename, '--serve-gateway'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_PORT: '0',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: '127.0.0.1:1',
      SANDBOX: 'true',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      // The honest partner's own rate limit is not what is measured.
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gateway.stdout.pipe(log);
  gateway.stderr.pipe(log);
  const stop = () => {
    if (gateway.exitCode === null) gateway.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  try {
    const until = Date.now() + 180_000;
    for (;;) {
      if (gateway.exitCode !== null)
        throw new Error(`the gateway exited with ${gateway.exitCode}; see .cache/bench/auth-flood-gateway.log`);
      const up = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      if (Date.now() > until) throw new Error('the gateway did not come up in 180 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const created = await fetch(`${url}/sandbox/v1/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-key': adminKey },
      body: JSON.stringify({ name: 'honest partner' }),
    });
    if (created.status !== 201) throw new Error(`partner creation answered ${created.status}: ${await created.text()}`);
    const { api_key: apiKey } = (await created.json()) as { api_key: string };
    const honest = () => ({ 'x-api-key': apiKey });

    await closedLoop(url, honestConnections, 3, honest); // warm-up: JIT, connections, the key cache
    const alone = await closedLoop(url, honestConnections, seconds, honest);
    // The flood runs a second longer on each side, so the honest phase is inside it throughout.
    const flood = startFlood(url, floodConnections, seconds + 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const flooded = await closedLoop(url, honestConnections, seconds, honest);
    const floodResult = await flood;

    const { statuses: _a, ...aloneRow } = alone;
    const { statuses: _f, ...floodedRow } = flooded;
    console.log(
      `auth flood: an honest partner (${honestConnections} connections, GET ${ROUTE}) for ${seconds} s alone, then ${seconds} s inside a flood of made-up keys (${floodConnections} connections)`,
    );
    console.table({ alone: aloneRow, 'in the flood': floodedRow });
    const floodSeconds = seconds + 2;
    console.log(
      `flood: ${floodResult.requests} requests in ${floodSeconds} s (${Math.round(floodResult.requests / floodSeconds)}/s), answers ${JSON.stringify(floodResult.statuses)}`,
    );
    const ratio = flooded.p99Ms / alone.p99Ms;
    console.log(`honest p99: ${alone.p99Ms} ms alone, ${flooded.p99Ms} ms in the flood: ratio ${ratio.toFixed(2)}`);
    writeFileSync(
      join(logDir, 'auth-flood.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          seconds,
          honestConnections,
          floodConnections,
          alone: aloneRow,
          flooded: floodedRow,
          flood: floodResult,
          ratio,
        },
        null,
        2,
      ),
    );
  } finally {
    stop();
  }
}

const entry = process.argv.includes('--flood-worker') ? floodWorker : process.argv.includes('--serve-gateway') ? serveGateway : undefined;
if (entry) {
  entry().then(
    // The flood worker ends when it has printed; the gateway serves until it is stopped.
    () => (entry === floodWorker ? process.exit(0) : undefined),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
