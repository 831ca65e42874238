import { KeyEnvironment } from '@partner/platform';
import { GatewayConfig } from '../config/gateway.config';
import { OperatorKeyRepository } from './operator-key.repository';
import { adminKeyOfOtherEnvironment, NO_OPERATOR_KEY, OperatorKeysBootstrap } from './operator-keys.bootstrap';

/**
 * The table as a set of hashes' owners: the environment's key, and any made by the CLI (`existing`, of the
 * gateway's environment); `storedAs` maps keys already stored to their environment.
 */
function keysWith(existing: number, storedAs: Record<string, KeyEnvironment> = {}) {
  const added: Array<[string, KeyEnvironment]> = [];
  const keys = {
    addEnvironmentKey: async (key: string, environment: KeyEnvironment) => {
      if (storedAs[key]) return storedAs[key];
      added.push([key, environment]);
      return environment;
    },
    countActive: async () => existing + added.length,
  } as unknown as OperatorKeyRepository;
  return { keys, added };
}

const bootstrap = (adminKey: string, keys: OperatorKeyRepository, sandbox = false) =>
  new OperatorKeysBootstrap(Object.assign(new GatewayConfig(), { ADMIN_API_KEY: adminKey, SANDBOX: sandbox }), keys).onApplicationBootstrap();

describe('OperatorKeysBootstrap', () => {
  it("adds ADMIN_API_KEY to the operator keys at start, for the gateway's environment", async () => {
    const { keys, added } = keysWith(0);
    await bootstrap('k'.repeat(32), keys);
    expect(added).toEqual([['k'.repeat(32), 'production']]);
    const sandbox = keysWith(0);
    await bootstrap('s'.repeat(16), sandbox.keys, true);
    expect(sandbox.added).toEqual([['s'.repeat(16), 'sandbox']]);
  });

  it('refuses to start with an ADMIN_API_KEY a sandbox stored first (a volume a sandbox once used), saying what to do', async () => {
    const known = 'k'.repeat(32);
    await expect(bootstrap(known, keysWith(3, { [known]: 'sandbox' }).keys)).rejects.toThrow(adminKeyOfOtherEnvironment('sandbox', 'production'));
    expect(adminKeyOfOtherEnvironment('sandbox', 'production')).toMatch(/set another ADMIN_API_KEY.*operator-key revoke/);
    // And the other way: a sandbox started with a production key.
    await expect(bootstrap(known, keysWith(3, { [known]: 'production' }).keys, true)).rejects.toThrow(adminKeyOfOtherEnvironment('production', 'sandbox'));
  });

  it('starts without ADMIN_API_KEY when operator keys exist (made by the CLI)', async () => {
    const { keys, added } = keysWith(2);
    await expect(bootstrap('', keys)).resolves.toBeUndefined();
    expect(added).toEqual([]);
  });

  it('refuses to start with no operator key at all, saying what to do', async () => {
    await expect(bootstrap('', keysWith(0).keys)).rejects.toThrow(NO_OPERATOR_KEY);
    expect(NO_OPERATOR_KEY).toMatch(/ADMIN_API_KEY.*npm run cli -- operator-key create/);
  });
});
