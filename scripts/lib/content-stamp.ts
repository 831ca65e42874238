/**
 * Change detection by content: a stamp records the SHA-256 of every input file of a step (a generator,
 * the build) and of every file it produced. The step is up to date only while both still match, file for
 * file, so a saved-but-unchanged file, a checkout that rewrites mtimes or a clock skew never rebuilds,
 * and an edit, an added or deleted file, or a damaged output always does. Used by scripts/lib/build-stamp.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Path relative to the root (always `/`-separated) → SHA-256 of its content (base64url). */
export type Digest = Record<string, string>;

export interface Stamp {
  inputs: Digest;
  outputs: Digest;
}

/** Whether a relative path (file or folder) is left out of a digest. */
export type Skip = (relativePath: string, isDirectory: boolean) => boolean;

/**
 * The digest of `paths` (files or folders, read recursively, relative to `root`). A missing path adds no
 * entry, so one that appears or disappears later shows as a difference.
 */
export function digest(root: string, paths: readonly string[], skip: Skip = () => false): Digest {
  const out: Digest = {};
  const visit = (rel: string) => {
    const stat = statSync(join(root, rel), { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      if (skip(rel, true)) return;
      for (const entry of readdirSync(join(root, rel)).sort()) visit(`${rel}/${entry}`);
    } else if (stat.isFile() && !skip(rel, false)) {
      out[rel] = createHash('sha256')
        .update(readFileSync(join(root, rel)))
        .digest('base64url');
    }
  };
  for (const path of paths) visit(path.replace(/\/+$/, ''));
  return out;
}

/** The paths whose content differs between two digests: changed, added or removed, sorted. */
export function differences(recorded: Digest, current: Digest): string[] {
  const paths = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  return [...paths].filter((path) => recorded[path] !== current[path]).sort();
}

/** Why a step must run again: empty when `stamp` matches `current` in every input and output. */
export function staleness(stamp: Stamp | undefined, current: Stamp): string[] {
  if (!stamp) return ['(no stamp: never built here)'];
  // A step that produced nothing is never taken as done (an interrupted first run, a stamp written by hand).
  if (Object.keys(current.outputs).length === 0) return ['(no output)'];
  return [...differences(stamp.inputs, current.inputs), ...differences(stamp.outputs, current.outputs)];
}

/** The stamp in `file`, or undefined when it is missing or not one (an older format, a truncated write). */
export function readStamp(file: string): Stamp | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Stamp>;
    const isDigest = (d: unknown): d is Digest => typeof d === 'object' && d !== null && !Array.isArray(d);
    return isDigest(parsed.inputs) && isDigest(parsed.outputs) ? { inputs: parsed.inputs, outputs: parsed.outputs } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the stamp whole or not at all (a rename), so a crash never leaves a half-written one. */
export function writeStamp(file: string, stamp: Stamp): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(stamp));
  renameSync(tmp, file);
}

/** "3 files changed: a, b, c" for a log line; the first few paths only. */
export function describeChanges(changed: readonly string[], shown = 3): string {
  const head = changed.slice(0, shown).join(', ');
  return changed.length > shown ? `${changed.length} changed: ${head}, ...` : `${changed.length} changed: ${head}`;
}
