/**
 * Builds every app: generates the typed API client's types (from docs/openapi.json), compiles the workspace with tsc (which also type-checks it), then rewrites
 * the path aliases (@partner/*) to relative imports so `node dist/apps/<app>/src/main.js` runs without
 * any loader.
 *
 * `--if-stale` (npm start, the Nx build targets) runs only the steps whose inputs or outputs changed since
 * they last succeeded (scripts/lib/build-stamp.ts): the API client's types when a document changed, the
 * compilation when any source did. Without it (npm run build, npm test) every step runs. No Prisma client is
 * generated: the apps and their specs run every query on pg (ADR 0021).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiClientTypes } from './lib/api-client-types';
import { API_CLIENT_TYPES_STEP, buildStep, currentState, recordStep, Step, stepStaleness } from './lib/build-stamp';
import { describeChanges } from './lib/content-stamp';
import { repoRoot } from './lib/services';

const root = repoRoot();
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

/**
 * One build at a time per checkout: every app's Nx `build` target runs this script (`nx run-many -t build`
 * starts six at once), and two tsc runs writing dist/ together would leave it half one, half the other.
 * The others wait on the lock; with --if-stale they then find dist/ current and skip.
 */
function acquireLock(): () => void {
  const lock = join(root, '.cache', 'build.lock');
  mkdirSync(join(root, '.cache'), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    // An empty file is a lock being written by its new holder: wait for it, never take it over.
    if (holder > 0 && !alive(holder)) {
      rmSync(lock, { force: true }); // left by a build that died
      continue;
    }
    if (Date.now() > deadline) throw new Error(`build: another build (pid ${holder}) holds ${lock}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const ifStale = process.argv.includes('--if-stale');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The steps of `steps` to run: all of them, or with --if-stale those whose stamp no longer matches. */
function toRun<T extends { step: Step }>(steps: T[]): T[] {
  return ifStale ? steps.filter(({ step }) => stepStaleness(root, step).length > 0) : steps;
}

/** Runs `steps` (their inputs read first) with `run`, then records each as done. */
function runSteps(steps: Step[], run: () => void): void {
  const inputs = steps.map((step) => currentState(root, step).inputs);
  run();
  steps.forEach((step, i) => recordStep(root, step, inputs[i]));
}

const release = acquireLock();
process.on('exit', release);
const started = Date.now();
const build = buildStep();
if (ifStale) {
  const why = stepStaleness(root, build);
  if (why.length === 0) {
    console.log('build: dist/ is current, skipped');
    process.exit(0);
  }
  console.log(`build: inputs or outputs ${describeChanges(why)}`);
}

if (toRun([{ step: API_CLIENT_TYPES_STEP }]).length > 0) runSteps([API_CLIENT_TYPES_STEP], () => generateApiClientTypes(root));
else console.log('build: API client types current, not generated');

// Generated again identically (a deleted types folder): the compilation's inputs may all match again.
if (ifStale && stepStaleness(root, build).length === 0) {
  console.log(`build: dist/ is current after generating, not compiled (${seconds(started)})`);
  process.exit(0);
}
const compiled = Date.now();
runSteps([build], () => {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  run(bin('tsc'), ['-p', 'tsconfig.build.json']);
  run(bin('tsc-alias'), ['-p', 'tsconfig.build.json']);
});
console.log(`build: done in ${seconds(started)} (tsc ${seconds(compiled)})`);
