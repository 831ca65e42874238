/**
 * `npm run lint`: Prettier's check, then ESLint over apps, libs, tools, scripts and offline. The module-boundary rule skips
 * itself without a cached Nx project graph, so the graph is computed first (scripts/ and offline/ are in no project).
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
// The typed client's generated types: without them every type-aware rule sees `any` (a fresh clone).
generateApiClientTypes(root);
execFileSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, env, stdio: 'ignore' });
execFileSync(join(root, 'node_modules/.bin/eslint'), ['--max-warnings=0', 'apps', 'libs', 'tools', 'scripts', 'offline'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
