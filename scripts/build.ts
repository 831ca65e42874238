/**
 * Builds every app: generates each service's Prisma client (offline) and the typed API client's types
 * (from docs/openapi.json), compiles the workspace with tsc (which also type-checks it), then rewrites
 * the path aliases (@partner/*) to relative imports so `node dist/apps/<app>/src/main.js` runs without
 * any loader.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiClientTypes } from './lib/api-client-types';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp';
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

const release = acquireLock();
process.on('exit', release);
if (process.argv.includes('--if-stale') && buildIsCurrent(root)) {
  console.log('build: dist/ is current, skipped');
  process.exit(0);
}

const started = Date.now();
run(bin('tsx'), [join(root, 'scripts/db/generate.ts')]);
generateApiClientTypes(root);
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('tsc-alias'), ['-p', 'tsconfig.build.json']);
writeBuildStamp(root, started);
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
