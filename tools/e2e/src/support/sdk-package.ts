import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repositoryRoot = join(__dirname, '..', '..', '..', '..');
export const SDK_PACKAGE = '@partner-service/sdk';

/**
 * `npm run sdk:pack`, then the tarball installed into an empty project as a partner does it
 * (`npm init -y && npm install <tgz>`), offline: the SDK has no dependency to download. Answers the
 * project's folder.
 */
export async function installPackedSdk(): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'sdk:pack'], { cwd: repositoryRoot });
  const tarball = stdout.trim().split('\n').pop() as string;
  const project = await mkdtemp(join(tmpdir(), 'partner-sdk-'));
  await run('npm', ['init', '-y'], { cwd: project });
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
  return project;
}

/** Removes the project installPackedSdk made. */
export async function removeProject(project: string | undefined): Promise<void> {
  if (project) await rm(project, { recursive: true, force: true });
}

/**
 * Runs `script` in a child `node` in the project, as CommonJS (`.cjs`, loading the SDK with require())
 * or as an ES module (`.mjs`, with import); answers what it printed last, parsed as JSON.
 */
export async function runInProject<T>(project: string, kind: 'cjs' | 'mjs', script: string, env: Record<string, string> = {}): Promise<T> {
  const file = join(project, `script-${Date.now()}-${Math.random().toString(36).slice(2)}.${kind}`);
  await writeFile(file, script);
  const { stdout } = await run(process.execPath, [file], { cwd: project, env: { PATH: process.env.PATH, ...env }, timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as T;
}
