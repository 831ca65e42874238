import { KeyEnvironment } from '@partner/operator-access';
import { hashApiKey } from '../auth/api-key';
import { GatewayConfig } from '../config/gateway.config';
import { FakeOperatorKeyRepository } from './fake-operator-key-repository.spec-support';
import { adminKeyOfOtherEnvironment, NO_OPERATOR_KEY, OperatorKeysBootstrap } from './operator-keys.bootstrap';

/**
 * The table: `existing` keys made by the CLI (of a production gateway's environment), and `storedAs`, ADMIN_API_KEYs
 * some gateway stored already, by their environment. `added`: the ADMIN_API_KEYs stored since, by hash.
 */
function keysWith(existing: number, storedAs: Record<string, KeyEnvironment> = {}) {
  const keys = new FakeOperatorKeyRepository();
  for (let i = 0; i < existing; i++) keys.add(`adm_cli_${i}`);
  for (const [key, environment] of Object.entries(storedAs)) keys.add(key, { name: 'environment', environment });
  const before = keys.environmentKeys().length;
  return { keys, added: () => keys.environmentKeys().slice(before) };
}

/** An ADMIN_API_KEY as stored: its hash, and the environment it was stored for. */
const stored = (key: string, environment: KeyEnvironment) => ({ hash: hashApiKey(key), environment });

const bootstrap = (adminKey: string, keys: FakeOperatorKeyRepository, sandbox = false) =>
  new OperatorKeysBootstrap(
    Object.assign(new GatewayConfig(), { ADMIN_API_KEY: adminKey, SANDBOX: sandbox }),
    keys,
  ).onApplicationBootstrap();

describe('OperatorKeysBootstrap', () => {
  it("adds ADMIN_API_KEY to the operator keys at start, for the gateway's environment", async () => {
    const { keys, added } = keysWith(0);
    await bootstrap('k'.repeat(32), keys);
    expect(added()).toEqual([stored('k'.repeat(32), 'production')]);
    const sandbox = keysWith(0);
    await bootstrap('s'.repeat(16), sandbox.keys, true);
    expect(sandbox.added()).toEqual([stored('s'.repeat(16), 'sandbox')]);
  });

  it('refuses to start with an ADMIN_API_KEY a sandbox stored first (a volume a sandbox once used), saying what to do', async () => {
    const known = 'k'.repeat(32);
    await expect(bootstrap(known, keysWith(3, { [known]: 'sandbox' }).keys)).rejects.toThrow(
      adminKeyOfOtherEnvironment('sandbox', 'production'),
    );
    expect(adminKeyOfOtherEnvironment('sandbox', 'production')).toMatch(/set another ADMIN_API_KEY.*operator-key revoke/);
    // And the other way: a sandbox started with a production key.
    await expect(bootstrap(known, keysWith(3, { [known]: 'production' }).keys, true)).rejects.toThrow(
      adminKeyOfOtherEnvironment('production', 'sandbox'),
    );
  });

  it('starts without ADMIN_API_KEY when operator keys exist (made by the CLI)', async () => {
    const { keys, added } = keysWith(2);
    await expect(bootstrap('', keys)).resolves.toBeUndefined();
    expect(added()).toEqual([]);
  });

  it('refuses to start with no operator key at all, saying what to do', async () => {
    await expect(bootstrap('', keysWith(0).keys)).rejects.toThrow(NO_OPERATOR_KEY);
    expect(NO_OPERATOR_KEY).toMatch(/ADMIN_API_KEY.*npm run cli -- operator-key create/);
  });
});
