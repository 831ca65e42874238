import { requireEnv } from '@partner/testing';

/**
 * The e2e stack's control channel (scripts/test/run.ts, controlServer): a fault injected into the stack
 * `npm test` runs, or the restart that undoes it. Resolves once the runner answers 204 (a restart: the
 * whole stack ready again).
 */
export async function stackControl(action: 'kill' | 'stop' | 'restart' | 'crash', target: string): Promise<void> {
  const res = await fetch(`${requireEnv('STACK_CONTROL_URL')}/${action}/${target}`, {
    method: 'POST',
    signal: AbortSignal.timeout(150_000),
  });
  if (res.status !== 204) throw new Error(`${action} ${target}: ${res.status} ${await res.text()}`);
}
