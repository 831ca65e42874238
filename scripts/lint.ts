/**
 * `npm run lint`: ESLint over apps and libs, module boundaries included. The boundary rule reads Nx's
 * project graph and silently skips itself when none is cached, so the graph is computed first.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
execFileSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, env, stdio: 'ignore' });
execFileSync(join(root, 'node_modules/.bin/eslint'), ['--max-warnings=0', 'apps', 'libs'], { cwd: root, env, stdio: 'inherit' });
