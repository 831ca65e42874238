/**
 * `npm run sdk:pack`: the SDK (libs/api-client/src/sdk) as dist/sdk/<name>-<version>.tgz: CommonJS with
 * declarations, and an ES module wrapper over it (one PartnerApiError class whichever way it is loaded).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiClientTypes } from '../lib/api-client-types';

const LIBRARY = 'libs/api-client';

/** Builds and packs the SDK; answers the tarball's absolute path. */
export function packSdk(root: string = join(__dirname, '../..')): string {
  const out = join(root, 'dist/sdk');
  const staging = join(out, 'package');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  generateApiClientTypes(root);
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(root, LIBRARY, 'tsconfig.sdk.json'), '--outDir', join(staging, 'lib')], {
    cwd: root,
    stdio: 'inherit',
  });
  writeEsmWrapper(join(staging, 'lib/sdk'));
  copyFileSync(join(root, LIBRARY, 'package.json'), join(staging, 'package.json'));
  copyFileSync(join(root, LIBRARY, 'README.md'), join(staging, 'README.md'));
  const packed = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: staging, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(packed) as { filename: string }[];
  return join(out, filename);
}

/** index.mjs re-exports the CommonJS build's exports by name; index.d.mts its declarations. */
function writeEsmWrapper(dir: string): void {
  const names = Object.keys(require(join(dir, 'index.js')) as object).filter((name) => name !== '__esModule');
  writeFileSync(join(dir, 'index.mjs'), `import sdk from './index.js';\n\nexport const { ${names.join(', ')} } = sdk;\n`);
  writeFileSync(join(dir, 'index.d.mts'), `export * from './index.js';\n`);
}

if (require.main === module) console.log(packSdk());
