/** The `docker` CLI and whichever Compose is installed (the v2 plugin, or Debian's docker-compose 1.29: the file runs under both). */
import { spawn, spawnSync, SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Run = { status: number | null; stdout: string; stderr: string };

/** Runs a command to completion, capturing its output (never throws on a non-zero exit). */
export function run(command: string, args: string[], options: SpawnSyncOptions = {}): Run {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  return { status: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** Runs a command with its output on this terminal; throws with `what` when it fails. */
export function runVisible(what: string, command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const r = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} failed (${command} ${args.join(' ')}: exit ${r.status ?? r.signal})`);
}

export const docker = (args: string[], options: SpawnSyncOptions = {}): Run => run('docker', args, options);

/** Whether a Docker engine answers (`docker info`), and why not. */
export function engineProblem(): string | undefined {
  try {
    const r = docker(['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 });
    return r.status === 0 ? undefined : r.stderr.trim() || `docker info exited with ${r.status}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * A Docker engine that answers, started here when none does: `dockerd` (Debian's docker.io), as root, in
 * the background, its log in `logFile`; it outlives this process, as a system service would. Resolves
 * with the reason when none can be had (no dockerd installed, not root, or no answer within 60 s).
 */
export async function ensureEngine(logFile: string): Promise<string | undefined> {
  const problem = engineProblem();
  if (!problem) return undefined;
  if (run('sh', ['-c', 'command -v dockerd']).status !== 0)
    return `${problem}; and no dockerd is installed (Debian: apt-get install -y docker.io)`;
  if (process.getuid?.() !== 0) return `${problem}; start dockerd (as root), or run this as root to let it start one`;
  mkdirSync(dirname(logFile), { recursive: true });
  const out = openSync(logFile, 'a');
  spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] }).unref();
  console.log(`no Docker engine answered: started dockerd (log: ${logFile})`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = engineProblem();
    if (!now) return undefined;
    if (Date.now() > deadline) return `dockerd started but no engine answers after 60 s (${now}; see ${logFile})`;
  }
}

/** An image's labels, or undefined when the engine has no image of that name. */
export function imageLabels(image: string): Record<string, string> | undefined {
  const r = docker(['image', 'inspect', '--format', '{{json .Config.Labels}}', image]);
  if (r.status !== 0) return undefined;
  return (JSON.parse(r.stdout.trim() || 'null') as Record<string, string> | null) ?? {};
}

/** The Compose command of this machine: `docker compose` (v2) when the plugin answers, else `docker-compose`. */
export function composeCommand(): string[] {
  if (process.env.COMPOSE_COMMAND) return process.env.COMPOSE_COMMAND.split(/\s+/).filter(Boolean);
  try {
    if (run('docker', ['compose', 'version'], { timeout: 20_000 }).status === 0) return ['docker', 'compose'];
  } catch {
    /* no docker CLI: docker-compose below says so */
  }
  return ['docker-compose'];
}
