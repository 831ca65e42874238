/**
 * `npm run bench:auth-flood` (or `npm run bench -- --auth-flood`): what a flood of made-up API keys does
 * to an honest partner. The whole stack as `npm start` runs it, with the gateway's defaults for failed
 * authentication (API_KEY_NEGATIVE_CACHE_MS, AUTH_FAILURES_*); an honest partner reads its feed
 * (GET /partner/v1/events) in a closed loop, first alone, then while another process floods the same
 * route with a fresh made-up key on every request, from the same address (the worst case: one proxy in
 * front). Not a test: it prints both p99s and their ratio. See README.md next to this file.
 *
 *   npm run bench:auth-flood
 *   npm run bench:auth-flood -- --no-build --seconds 6 --flood-connections 480
 *
 * Options: --seconds S (each phase, default 8), --honest-connections N (default 4), --flood-connections N
 * (default 480: ten times the 48 of the measurement in ADR 0016), --no-build.
 * Ports and database (environment): AUTH_FLOOD_KAFKA_PORT (29192), AUTH_FLOOD_GATEWAY_PORT (24000),
 * AUTH_FLOOD_HEALTH_PORT_BASE (24100), AUTH_FLOOD_DATABASE_URL (partner_bench_auth_flood, dropped first).
 * Results: .cache/bench/auth-flood.json; app logs in .cache/bench/auth-flood-logs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { repoRoot } from '../lib/services';
import { kafka, migrate, recreateDatabase, RunningStack, startApps, StackOptions } from '../stack/stack';

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
async function closedLoop(url: string, connections: number, seconds: number, headers: () => Record<string, string>): Promise<PhaseResult & { statuses: Record<string, number> }> {
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
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [__filename, '--flood-worker', '--url', url, '--connections', String(connections), '--seconds', String(seconds)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`flood worker exited with ${code}`)))));
}

async function main(): Promise<void> {
  const seconds = Number(arg('seconds', '8'));
  const honestConnections = Number(arg('honest-connections', '4'));
  const floodConnections = Number(arg('flood-connections', '480'));
  const kafkaPort = Number(process.env.AUTH_FLOOD_KAFKA_PORT ?? 29192);
  const options: StackOptions = {
    kafkaPort,
    databaseUrl: process.env.AUTH_FLOOD_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_auth_flood',
    gatewayPort: Number(process.env.AUTH_FLOOD_GATEWAY_PORT ?? 24000),
    healthPortBase: Number(process.env.AUTH_FLOOD_HEALTH_PORT_BASE ?? 24100),
    logDir: join(root, '.cache', 'bench', 'auth-flood-logs'),
    env: {
      SANDBOX: 'true',
      ADMIN_API_KEY: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      // The honest partner's own rate limit is not what is measured.
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    },
  };
  if (!process.argv.includes('--no-build')) execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/build.ts')], { stdio: 'inherit' });
  rmSync(join(root, '.cache', 'kafka', `data-${kafkaPort}`), { recursive: true, force: true });
  kafka('start', kafkaPort);
  let stack: RunningStack | undefined;
  // Ctrl-C or a timeout: the stack and the broker go down with the bench.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`auth flood bench: ${signal}, stopping the stack...`);
      void (stack?.stop() ?? Promise.resolve()).finally(() => {
        kafka('stop', kafkaPort);
        process.exit(130);
      });
    });
  }
  try {
    await recreateDatabase(options.databaseUrl);
    migrate(options.databaseUrl);
    stack = await startApps(options);
    const created = await fetch(`${stack.gatewayUrl}/sandbox/v1/partners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-key': options.env?.ADMIN_API_KEY ?? '' },
      body: JSON.stringify({ name: 'honest partner' }),
    });
    const { api_key: apiKey } = (await created.json()) as { api_key: string };
    const honest = () => ({ 'x-api-key': apiKey });

    await closedLoop(stack.gatewayUrl, honestConnections, 3, honest); // warm-up: JIT, connections, the key cache
    const alone = await closedLoop(stack.gatewayUrl, honestConnections, seconds, honest);
    // The flood runs a second longer on each side, so the honest phase is inside it throughout.
    const flood = startFlood(stack.gatewayUrl, floodConnections, seconds + 2);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const flooded = await closedLoop(stack.gatewayUrl, honestConnections, seconds, honest);
    const floodResult = await flood;

    const { statuses: _a, ...aloneRow } = alone;
    const { statuses: _f, ...floodedRow } = flooded;
    console.log(`auth flood: an honest partner (${honestConnections} connections, GET ${ROUTE}) for ${seconds} s alone, then ${seconds} s inside a flood of made-up keys (${floodConnections} connections)`);
    console.table({ alone: aloneRow, 'in the flood': floodedRow });
    const floodSeconds = seconds + 2;
    console.log(`flood: ${floodResult.requests} requests in ${floodSeconds} s (${Math.round(floodResult.requests / floodSeconds)}/s), answers ${JSON.stringify(floodResult.statuses)}`);
    const ratio = flooded.p99Ms / alone.p99Ms;
    console.log(`honest p99: ${alone.p99Ms} ms alone, ${flooded.p99Ms} ms in the flood: ratio ${ratio.toFixed(2)}`);
    const out = join(root, '.cache', 'bench');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'auth-flood.json'), JSON.stringify({ at: new Date().toISOString(), seconds, honestConnections, floodConnections, alone: aloneRow, flooded: floodedRow, flood: floodResult, ratio }, null, 2));
  } finally {
    await stack?.stop();
    kafka('stop', kafkaPort);
  }
}

if (process.argv.includes('--flood-worker')) {
  floodWorker().then(
    () => process.exit(0),
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
