/**
 * `npm run bench:auth-flood`: an honest partner's p99 alone, then inside a flood of made-up API keys, against the
 * built gateway with its services answered at once (ADR 0016). Flags and environment: docs/benchmarks/the-benches.md,
 * "A flood of made-up keys".
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import * as h from './harness';
import { buildWorkspace } from '../lib/build-stamp';
import { migrate, recreateDatabase } from '../stack/stack';
import { Bench, cli, distribution, flag, number, OUT_DIR, root, sandboxEnv, sandboxPartner, sleep, writeResults } from './harness';

const ROUTE = '/partner/v1/events?limit=1';
const tsx = join(root, 'node_modules/.bin/tsx');

/** `connections` loops, each sending the next GET as soon as the last is answered, for `seconds`. */
async function closedLoop(url: string, connections: number, seconds: number, headers: () => Record<string, string>) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const until = performance.now() + seconds * 1000;
  const get = async (_i: number, since: number): Promise<h.Outcome> => {
    const answer = pool.request({ method: 'GET', path: ROUTE, headers: headers() });
    const status = await answer.then(
      async (res) => (await res.body.dump(), String(res.statusCode)),
      (error: Error) => error.name,
    );
    return { status, latency: performance.now() - since };
  };
  const { latencies, statusCounts: statuses } = await h.closedLoop(Infinity, connections, get, () => performance.now() >= until);
  await pool.close();
  const d = distribution(latencies, 1);
  const failures = Object.fromEntries(Object.entries(statuses).filter(([s]) => s !== '200'));
  return { requests: latencies.length, p50Ms: d?.p50 ?? NaN, p99Ms: d?.p99 ?? NaN, failures, statuses };
}

/** The gateway as built (dist/: tsx emits no decorator metadata), its services replaced by a bus that answers an empty feed page at once. */
async function serveGateway(): Promise<void> {
  require('reflect-metadata');
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

async function main(bench: Bench): Promise<void> {
  const { seconds, honestConnections, floodConnections, noBuild } = cli('npm run bench:auth-flood -- [flags]', {
    seconds: number(8, 1),
    'honest-connections': number(4, 1),
    'flood-connections': number(480, 1),
    'no-build': flag(),
  });
  const port = Number(process.env.AUTH_FLOOD_GATEWAY_PORT ?? 24000);
  const databaseUrl = process.env.AUTH_FLOOD_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_bench_auth_flood';
  const adminKey = h.adminKey();
  const url = `http://127.0.0.1:${port}`;
  if (!noBuild) buildWorkspace(root);
  await recreateDatabase(databaseUrl);
  migrate(databaseUrl);
  mkdirSync(OUT_DIR, { recursive: true });
  // The gateway's defaults for failed authentication (API_KEY_NEGATIVE_CACHE_MS, AUTH_FAILURES_*) are what is measured.
  const env = {
    ...process.env,
    ...sandboxEnv(adminKey),
    PORT: String(port),
    ADMIN_PORT: '0',
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: '127.0.0.1:1',
  };
  const logFile = join(OUT_DIR, 'auth-flood-gateway.log');
  await bench.process('the gateway', tsx, [__filename, '--serve-gateway'], env, logFile, `${url}/healthz`, 180_000);
  const partner = await sandboxPartner(url, adminKey, 'honest partner');
  const honest = () => ({ 'x-api-key': partner.key });

  await closedLoop(url, honestConnections, 3, honest); // warm-up: JIT, connections, the key cache
  const alone = await closedLoop(url, honestConnections, seconds, honest);
  // The flood, from another process, runs a second longer on each side so the honest run is inside it throughout.
  const floodSeconds = seconds + 2;
  const worker = spawn(tsx, [__filename, '--flood-worker', url, String(floodConnections), String(floodSeconds)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  worker.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const flood = new Promise<{ requests: number; statuses: Record<string, number> }>((resolve, reject) =>
    worker.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`flood worker exited with ${code}`)))),
  );
  await sleep(1_000);
  const flooded = await closedLoop(url, honestConnections, seconds, honest);
  const floodResult = await flood;

  const [{ statuses: _a, ...aloneRow }, { statuses: _f, ...floodedRow }] = [alone, flooded];
  console.log(
    `auth flood: an honest partner (${honestConnections} connections, GET ${ROUTE}) for ${seconds} s alone, then ${seconds} s inside a flood of made-up keys (${floodConnections} connections)`,
  );
  console.table({ alone: aloneRow, 'in the flood': floodedRow });
  console.log(
    `flood: ${floodResult.requests} requests in ${floodSeconds} s (${Math.round(floodResult.requests / floodSeconds)}/s), answers ${JSON.stringify(floodResult.statuses)}`,
  );
  const ratio = flooded.p99Ms / alone.p99Ms;
  console.log(`honest p99: ${alone.p99Ms} ms alone, ${flooded.p99Ms} ms in the flood: ratio ${ratio.toFixed(2)}`);
  writeResults('auth-flood.json', {
    at: new Date().toISOString(),
    seconds,
    honestConnections,
    floodConnections,
    alone: aloneRow,
    flooded: floodedRow,
    flood: floodResult,
    ratio,
  });
}

const [role, ...rest] = process.argv.slice(2);
if (role === '--flood-worker') {
  // Made-up keys, a fresh one per request; prints its answers' statuses as JSON.
  const [url, connections, seconds] = rest;
  const key = () => ({ 'x-api-key': `pk_live_${randomBytes(32).toString('base64url')}` });
  void closedLoop(url, Number(connections), Number(seconds), key).then(({ requests, statuses }) => {
    process.stdout.write(JSON.stringify({ requests, statuses }));
    process.exit(0);
  });
} else if (role === '--serve-gateway')
  serveGateway().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
else {
  const bench = new Bench('auth flood');
  bench.run(() => main(bench));
}
