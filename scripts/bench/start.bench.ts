/**
 * `npm run bench:start`: how long `npm start` takes to be ready, cold against warm, in one run so that
 * the ratio means something on a noisy machine. A run is `npm start` in its own process group, timed from
 * its launch to the "Partner API ready" line (the gateway's /readyz answered 200: every consumer group
 * joined), then stopped as Ctrl-C stops it (SIGINT to the group), its ports free again before the next.
 *
 *   cold   the build's stamps and the apps' code cache removed first: every client generated, tsc, no cache
 *   warm   nothing changed since the run before
 *
 * Cold and warm alternate (cold, warm, cold, warm...), after one unmeasured warm start (the broker
 * started, the stamps written), and each case is given as min / median / max; warm/cold is taken pair
 * by pair. The broker keeps running between runs, as `npm start` leaves it, unless --stop-broker. With --vs,
 * the other checkout's npm start gets KAFKA_PORT=--vs-kafka-port (9192): its own broker beside this one's.
 *
 *   npm run bench:start                              5 runs of each case in this checkout
 *   npm run bench:start -- --runs 3 --stop-broker    the broker stopped before every run (its JVM's start counted)
 *   npm run bench:start -- --checkout ../other        another checkout
 *   npm run bench:start -- --vs ../main --cases warm  and an older checkout beside (cloned at another commit), each
 *                                                     case run in both back to back: before against after
 *
 * It uses npm start's own ports (PORT, HEALTH_PORT_BASE, KAFKA_PORT and DATABASE_URL as npm start reads
 * them): no other stack may run on them meanwhile. Results also go to .cache/bench/start.json.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { APPS, healthPortOf, repoRoot } from '../lib/services';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    checkout: { type: 'string', default: repoRoot() },
    vs: { type: 'string' },
    'vs-kafka-port': { type: 'string', default: '9192' },
    cases: { type: 'string', default: 'cold,warm' },
    'stop-broker': { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const cases = args.cases.split(',') as Case[];
const gatewayPort = Number(process.env.PORT ?? 3000);
const healthPortBase = Number(process.env.HEALTH_PORT_BASE ?? 3100);
const ports = [gatewayPort, ...APPS.map((app) => healthPortOf(app, healthPortBase))];
/** A stack that is not ready after this long failed (a cold build on a busy 2-core machine takes minutes). */
const READY_DEADLINE_MS = 10 * 60_000;

type Case = 'cold' | 'warm';

/** A checkout to start, with the environment of its npm start. */
interface Target {
  label: string;
  dir: string;
  env: NodeJS.ProcessEnv;
}
const targets: Target[] = [
  { label: '', dir: resolve(args.checkout), env: process.env },
  // Its own broker beside this one's (both keep running): each checkout's kafka.sh refuses a port another's broker holds.
  ...(args.vs ? [{ label: 'vs ', dir: resolve(args.vs), env: { ...process.env, KAFKA_PORT: args['vs-kafka-port'] } }] : []),
];

/** What a warm start can skip: removed (the build's stamps, older checkouts' too, Nx's cache, dist/), `npm start` finds nothing to reuse. */
function forgetBuild(t: Target): void {
  for (const path of ['.cache/build-stamp.json', '.cache/stamps', '.cache/compile-cache', 'dist'])
    rmSync(join(t.dir, path), { recursive: true, force: true });
  execFileSync(join(t.dir, 'node_modules/.bin/nx'), ['reset', '--onlyCache'], { cwd: t.dir, stdio: 'ignore' });
}

const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

async function untilPortsFree(deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const busy = (await Promise.all(ports.map(async (port) => ((await listening(port)) ? port : undefined)))).filter(
      (p) => p !== undefined,
    );
    if (busy.length === 0) return;
    if (Date.now() > until) throw new Error(`ports still in use: ${busy.join(', ')} (a stack running? stop it first)`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Ctrl-C: SIGINT to the whole group, SIGKILL after 30 s. */
async function stop(child: ChildProcess): Promise<void> {
  const group = -(child.pid ?? 0);
  if (group === 0 || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(group, 'SIGINT');
  const timer = setTimeout(() => process.kill(group, 'SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** One `npm start` to ready and stopped again: its time to ready and its `start:` lines. */
async function startOnce(t: Target): Promise<{ ms: number; phases: string[] }> {
  if (args['stop-broker'])
    execFileSync('bash', [join(t.dir, 'scripts/kafka/kafka.sh'), 'stop'], { cwd: t.dir, stdio: 'ignore', env: t.env });
  await untilPortsFree(30_000);
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: t.dir, env: t.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const phases: string[] = [];
  const tail: string[] = [];
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`not ready after ${READY_DEADLINE_MS / 1000} s`)), READY_DEADLINE_MS);
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          if (line.startsWith('start: ')) phases.push(line);
          if (line.includes('Partner API ready')) {
            clearTimeout(timer);
            ready();
          }
        });
      }
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`npm start exited with ${code} before it was ready`));
      });
    });
    return { ms: performance.now() - started, phases };
  } catch (error) {
    console.error(tail.join('\n'));
    throw error;
  } finally {
    await stop(child);
    await untilPortsFree(30_000);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[], show: (x: number) => string) =>
  [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => show(x).padStart(9)).join(' ');

async function main(): Promise<void> {
  const broker = args['stop-broker'] ? 'the broker stopped before each' : 'the broker kept running';
  console.log(
    `npm start to ready: ${runs} runs of ${cases.join(' and ')} in ${targets.map((t) => t.dir).join(', then in ')}, alternately; ${broker}`,
  );
  for (const t of targets)
    for (let i = 0; i < Number(args.warmup); i++) console.log(`${t.label}warm-up: ${seconds((await startOnce(t)).ms)}`);
  const times: Record<string, number[]> = {};
  const phases: Record<string, string[]> = {};
  for (let run = 1; run <= runs; run++) {
    const line: string[] = [];
    // Each case in every checkout back to back, so that a ratio pairs runs of the same minute.
    for (const c of cases) {
      for (const t of targets) {
        if (c === 'cold') forgetBuild(t);
        const result = await startOnce(t);
        (times[`${t.label}${c}`] ??= []).push(result.ms);
        phases[`${t.label}${c}`] = result.phases;
        line.push(`${t.label}${c} ${seconds(result.ms)}`);
      }
    }
    console.log(`run ${run}: ${line.join(', ')}`);
  }
  const ratios: Record<string, number[]> = {};
  const ratio = (a: string, b: string) => times[a] && times[b] && (ratios[`${a}/${b}`] = times[a].map((x, i) => x / times[b][i]));
  ratio('warm', 'cold');
  for (const c of cases) ratio(c, `vs ${c}`);
  console.log(`\n${''.padEnd(14)}${['min', 'median', 'max'].map((h) => h.padStart(9)).join(' ')}`);
  for (const [label, xs] of Object.entries(times)) console.log(`${label.padEnd(14)}${spread(xs, seconds)}`);
  for (const [label, xs] of Object.entries(ratios)) console.log(`${label.padEnd(14)}${spread(xs, (r) => r.toFixed(2))}   (pair by pair)`);
  if (phases.warm?.length) console.log(`\nthe last warm start:\n  ${phases.warm.join('\n  ')}`);
  const out = join(repoRoot(), '.cache', 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'start.json'),
    JSON.stringify(
      { targets: targets.map((t) => t.dir), stopBroker: args['stop-broker'], times, ratios, phases, at: new Date().toISOString() },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
