/**
 * `npm run bench:start`: `npm start` to "Partner API ready", cold against warm, alternately after an unmeasured
 * warm start, each run stopped as Ctrl-C stops it. Flags: docs/benchmarks/the-benches.md, "The others".
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { APPS, healthPortOf, repoRoot } from '../lib/services';
import { listening } from '../stack/stack';
import { Bench, cli, flag, list, number, secs as seconds, sleep, text, writeResults } from './harness';

const args = cli('npm run bench:start -- [flags]', {
  runs: number(5, 1),
  warmup: number(1),
  checkout: text(repoRoot(), undefined, 'DIR'),
  vs: text(undefined, undefined, 'DIR'),
  'vs-kafka-port': text('9192', undefined, 'PORT'),
  cases: text('cold,warm'),
  'stop-broker': flag(),
});
const cases = list(args.cases) as Array<'cold' | 'warm'>;
const gatewayPort = Number(process.env.PORT ?? 3000);
const healthPortBase = Number(process.env.HEALTH_PORT_BASE ?? 3100);
const ports = [gatewayPort, ...APPS.map((app) => healthPortOf(app, healthPortBase))];
/** A cold build on a busy 2-core machine takes minutes. */
const READY_DEADLINE_MS = 10 * 60_000;

/** The checkouts to start, each with the environment of its npm start. */
const targets: Array<{ label: string; dir: string; env: NodeJS.ProcessEnv }> = [
  { label: '', dir: resolve(args.checkout), env: process.env },
  // Its own broker beside this one's (both keep running): each checkout's kafka.sh refuses a port another's broker holds.
  ...(args.vs ? [{ label: 'vs ', dir: resolve(args.vs), env: { ...process.env, KAFKA_PORT: args.vsKafkaPort } }] : []),
];

/** What a warm start can skip: removed, `npm start` finds nothing to reuse (the build stamp, Nx's cache, dist/, the code cache; an older checkout's too). */
function forgetBuild(t: (typeof targets)[number]): void {
  for (const path of ['.cache/build-stamp.json', '.cache/stamps', '.cache/compile-cache', 'dist', 'dist/.build-stamp'])
    rmSync(join(t.dir, path), { recursive: true, force: true });
  if (existsSync(join(t.dir, 'project.json')))
    execFileSync(join(t.dir, 'node_modules/.bin/nx'), ['reset', '--onlyCache'], { cwd: t.dir, stdio: 'ignore' });
}

async function untilPortsFree(deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const open = await Promise.all(ports.map(listening));
    const busy = ports.filter((_, i) => open[i]);
    if (busy.length === 0) return;
    if (Date.now() > until) throw new Error(`ports still in use: ${busy.join(', ')} (a stack running? stop it first)`);
    await sleep(200);
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
async function startOnce(t: (typeof targets)[number]): Promise<{ ms: number; phases: string[] }> {
  // `npm run kafka`: the broker's script wherever the checkout keeps it (an older one, compared with --vs, too).
  if (args.stopBroker) execFileSync('npm', ['run', '-s', 'kafka', '--', 'stop'], { cwd: t.dir, stdio: 'ignore', env: t.env });
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[], show: (x: number) => string) =>
  [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => show(x).padStart(9)).join(' ');

async function main(): Promise<void> {
  const broker = args.stopBroker ? 'the broker stopped before each' : 'the broker kept running';
  console.log(
    `npm start to ready: ${args.runs} runs of ${cases.join(' and ')} in ${targets.map((t) => t.dir).join(', then in ')}, alternately; ${broker}`,
  );
  for (const t of targets) for (let i = 0; i < args.warmup; i++) console.log(`${t.label}warm-up: ${seconds((await startOnce(t)).ms)}`);
  const times: Record<string, number[]> = {};
  const phases: Record<string, string[]> = {};
  for (let run = 1; run <= args.runs; run++) {
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
  const at = new Date().toISOString();
  writeResults('start.json', { targets: targets.map((t) => t.dir), stopBroker: args.stopBroker, times, ratios, phases, at });
}

new Bench('start bench').run(main);
