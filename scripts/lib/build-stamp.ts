/**
 * npm start's quick answer to "is dist/ current?" without Nx (every `nx run` costs ~1 s of CPU): the SHA-256
 * of every input of the build target (patterns read from nx.json and project.json) and of dist/, recorded
 * after each build; while both match, Nx is skipped (docs/development.md, "Build").
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Node 22+ has it (the project runs on 24); the installed @types/node (20) does not declare it.
const { globSync } = fs as unknown as {
  globSync: (patterns: string[], options: { cwd: string; exclude: string[]; withFileTypes: true }) => fs.Dirent[];
};

/** What `npm run build` runs: the workspace's one compilation, through Nx's cache. */
export const NX_BUILD = ['run', 'workspace:build'];

/** Nx's two plugins loaded in its own process, not one worker each: 0.6 times the CPU of a cached build here. */
export const nxEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NX_ISOLATE_PLUGINS: 'false' });

/** `npm run build`, waited for. */
export function buildWorkspace(root: string): void {
  execFileSync(join(root, 'node_modules/.bin/nx'), NX_BUILD, { cwd: root, stdio: 'inherit', env: nxEnv() });
}

/** Path relative to the root → SHA-256 of its content (base64url). */
export type Digest = Record<string, string>;

export interface Stamp {
  inputs: Digest;
  outputs: Digest;
}

const stampFile = (root: string) => join(root, '.cache', 'build-stamp.json');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, never>;

/** The build target's input file patterns, named inputs expanded, exclusions (`!…`) apart; dependencies are package-lock.json, an input. */
export function buildInputPatterns(root: string): { include: string[]; exclude: string[] } {
  const named = (readJson(join(root, 'nx.json')).namedInputs ?? {}) as Record<string, unknown[]>;
  const target = (readJson(join(root, 'project.json')).targets as Record<string, { inputs: unknown[] }>).build;
  const include: string[] = [];
  const exclude: string[] = [];
  const expand = (input: unknown): void => {
    if (typeof input !== 'string') return;
    if (input in named) return named[input].forEach(expand);
    const negated = input.startsWith('!');
    const pattern = input.replace(/^!/, '').replace('{workspaceRoot}/', '');
    if (pattern.includes('{')) throw new Error(`build-stamp: input ${input} is not relative to the workspace root`);
    (negated ? exclude : include).push(pattern);
  };
  target.inputs.forEach(expand);
  return { include, exclude };
}

function digest(root: string, include: string[], exclude: string[] = []): Digest {
  const out: Digest = {};
  for (const path of globSync(include, { cwd: root, exclude, withFileTypes: true }).filter((e) => e.isFile())) {
    const rel = join(path.parentPath, path.name).slice(root.length + 1);
    out[rel] = createHash('sha256')
      .update(readFileSync(join(root, rel)))
      .digest('base64url');
  }
  return out;
}

/** The build's inputs as they are now: read them BEFORE a build, so a file saved meanwhile rebuilds next time. */
export function buildInputs(root: string): Digest {
  const { include, exclude } = buildInputPatterns(root);
  return digest(root, include, exclude);
}

/** Why dist/ may not be current: the paths that differ from the stamp (empty: it matches). */
export function buildStaleness(root: string): string[] {
  let stamp: Stamp;
  try {
    stamp = readJson(stampFile(root)) as unknown as Stamp;
  } catch {
    return ['(no stamp)'];
  }
  const outputs = digest(root, ['dist/**']);
  if (Object.keys(outputs).length === 0) return ['(no dist/)'];
  const differences = (recorded: Digest = {}, current: Digest) =>
    [...new Set([...Object.keys(recorded), ...Object.keys(current)])].filter((path) => recorded[path] !== current[path]);
  return [...differences(stamp.inputs, buildInputs(root)), ...differences(stamp.outputs, outputs)].sort();
}

/** Records a build that just succeeded, whole or not at all (a rename). */
export function recordBuild(root: string, inputsBefore: Digest): void {
  const file = stampFile(root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify({ inputs: inputsBefore, outputs: digest(root, ['dist/**']) } satisfies Stamp));
  renameSync(`${file}.tmp`, file);
}

/** "3 changed: a, b, c" for a log line; the first few paths only. */
export function describeChanges(changed: readonly string[], shown = 3): string {
  const head = changed.slice(0, shown).join(', ');
  return `${changed.length} changed: ${head}${changed.length > shown ? ', ...' : ''}`;
}
