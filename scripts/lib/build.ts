/**
 * `npm run build`: the workspace's one compilation (project.json), through Nx's cache: when none of its inputs
 * changed, Nx puts dist/ back instead of compiling (docs/development.md, "Build").
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { runInBackground } from '../stack/stack';

const NX_BUILD = ['run', 'workspace:build'];

/** Nx's two plugins loaded in its own process, not one worker each: 0.6 times the CPU of a cached build here. */
const nxEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NX_ISOLATE_PLUGINS: 'false' });

/** `npm run build`, waited for. */
export function buildWorkspace(root: string): void {
  execFileSync(join(root, 'node_modules/.bin/nx'), NX_BUILD, { cwd: root, stdio: 'inherit', env: nxEnv() });
}

/** `buildWorkspace` without blocking this process meanwhile (npm start's other phases run beside it). */
export const buildInBackground = (root: string): Promise<void> => runInBackground(join(root, 'node_modules/.bin/nx'), NX_BUILD, nxEnv());
