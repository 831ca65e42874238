/**
 * The apps as the image's `runtime` stage holds them (Dockerfile): dist/ and the production dependencies
 * (`npm ci`). `npm test`'s e2e stack runs from it, so a misplaced dependency fails here, not in a deployment.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The runtime stage's install, flag for flag (optional and peer omitted: else npm adds the Prisma CLI, 240 MB). */
export const RUNTIME_NPM_CI = ['ci', '--omit=dev', '--omit=optional', '--omit=peer', '--ignore-scripts', '--no-audit', '--no-fund'];

/** Builds (or refreshes) the tree under .cache/runtime from `root`'s dist/ and lockfile; returns its path. */
export function prepareRuntimeTree(root: string): string {
  const dir = join(root, '.cache', 'runtime');
  mkdirSync(dir, { recursive: true });
  const manifests = ['package.json', 'package-lock.json'];
  const patches = readdirSync(join(root, 'patches')).sort();
  const hash = createHash('sha256');
  for (const file of [...manifests, ...patches.map((p) => join('patches', p))]) hash.update(readFileSync(join(root, file)));
  const stamp = join(dir, '.installed');
  const wanted = hash.digest('hex');
  // The install takes ~25 s; done again only when package.json, the lockfile or a patch changed.
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted || !existsSync(join(dir, 'node_modules'))) {
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
    for (const file of manifests) copyFileSync(join(root, file), join(dir, file));
    rmSync(join(dir, 'patches'), { recursive: true, force: true });
    execFileSync('npm', RUNTIME_NPM_CI, { cwd: dir, stdio: 'inherit' });
    // The reviewed patches (ADR 0027), which `--ignore-scripts` skips: as the image does, by the development tree's patch-package.
    cpSync(join(root, 'patches'), join(dir, 'patches'), { recursive: true });
    execFileSync(process.execPath, [join(root, 'node_modules/patch-package/index.js'), '--error-on-fail'], { cwd: dir, stdio: 'inherit' });
    writeFileSync(stamp, wanted);
  }
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  return dir;
}
