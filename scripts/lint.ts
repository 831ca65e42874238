/**
 * `npm run lint`: the format (Prettier, .prettierrc.json: `npm run format` rewrites what it finds), then ESLint
 * over apps, libs, scripts and offline (the network workarounds, offline/README.md), type-aware rules and module boundaries included.
 * The boundary rule reads Nx's project graph and silently skips itself when none is cached, so the graph
 * is computed first. It checks files inside Nx projects only: scripts/ and offline/ belong to none, so there it
 * does not apply (scripts may reach into apps, as the benches do); the other rules do.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { generateApiClientTypes } from './lib/api-client-types';

const root = join(__dirname, '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
try {
  execFileSync(join(root, 'node_modules/.bin/prettier'), ['--check', '--log-level', 'warn', '.'], { cwd: root, stdio: 'inherit' });
} catch {
  console.error('lint: the files above are not formatted; `npm run format` formats them (Prettier, .prettierrc.json)');
  process.exit(1);
}
// The typed client's types are generated, never committed: without them every rule that reads types sees `any`
// (a fresh clone before its first build). Written again from the committed documents, identical when current.
generateApiClientTypes(root);
execFileSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, env, stdio: 'ignore' });
execFileSync(join(root, 'node_modules/.bin/eslint'), ['--max-warnings=0', 'apps', 'libs', 'scripts', 'offline'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
