/**
 * Keys carry their environment (docs/adr/0019-production-safe-by-default.md): every partner and operator
 * key is stored with the environment it was made for, and a gateway accepts only the keys of its own, so a
 * sandbox's keys (a known ADMIN_API_KEY of a sandbox env file, pk_sandbox_ keys handed to testers) never open
 * a production gateway, not even on a database a sandbox once used; nor production keys a sandbox.
 */
export type KeyEnvironment = 'sandbox' | 'production';

export const KEY_ENVIRONMENTS: readonly KeyEnvironment[] = ['sandbox', 'production'];

/** The environment of a gateway: SANDBOX=true is the sandbox, anything else production. */
export const environmentOf = (config: { SANDBOX: boolean }): KeyEnvironment => (config.SANDBOX ? 'sandbox' : 'production');

/** What a partner key's text says of it (pk_sandbox_..., pk_live_...); undefined when it says neither. */
export function claimedEnvironment(apiKey: string): KeyEnvironment | undefined {
  if (apiKey.startsWith('pk_sandbox_')) return 'sandbox';
  if (apiKey.startsWith('pk_live_')) return 'production';
  return undefined;
}

/**
 * Why a gateway of environment `gateway` refuses a key of environment `key` (the 401's message), or
 * undefined when the key is of its own environment.
 */
export function keyEnvironmentProblem(kind: 'API key' | 'operator key', key: KeyEnvironment, gateway: KeyEnvironment): string | undefined {
  if (key === gateway) return undefined;
  return `this ${kind} belongs to the ${key === 'sandbox' ? 'sandbox' : 'production environment'}: a ${gateway} gateway does not accept it`;
}
