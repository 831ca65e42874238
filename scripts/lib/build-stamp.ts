import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by `npm run build` when it succeeds; `npm start` skips the build while it is newer than every source. */
const STAMP = join('dist', '.build-stamp');
// docs/openapi.json: the typed client (libs/api-client) is generated from it.
const SOURCES = ['apps', 'libs', 'prisma', 'docs/openapi.json', 'tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json'];
const SKIPPED = new Set(['node_modules', 'generated', 'dist', '.cache']);

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Records when the build that just succeeded STARTED: a file saved while it ran counts as newer. */
export function writeBuildStamp(root: string, startedAt: number): void {
  writeFileSync(join(root, STAMP), String(startedAt));
}

/** True when dist/ was built after the last change to any source, schema or dependency. */
export function buildIsCurrent(root: string): boolean {
  let builtAt: number;
  try {
    builtAt = Number(readFileSync(join(root, STAMP), 'utf8'));
  } catch {
    return false;
  }
  return Number.isFinite(builtAt) && SOURCES.every((source) => newestMtime(join(root, source)) < builtAt);
}
