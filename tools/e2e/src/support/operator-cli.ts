import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { requireEnv } from '@partner/testing';

const root = join(__dirname, '..', '..', '..', '..');

/**
 * `npm run cli -- <args>` as an operator runs it: its own process (apps/operator-cli from its sources, as
 * `npm run cli` runs it), against the stack's database. Its exit code and output, stderr included, a failure too.
 */
export async function operatorCli(...args: string[]): Promise<{ code: number; stdout: string; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'apps/operator-cli/src/main.ts'), ...args],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: requireEnv('DATABASE_URL') },
        timeout: 120_000,
      },
    );
    return { code: 0, stdout, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
