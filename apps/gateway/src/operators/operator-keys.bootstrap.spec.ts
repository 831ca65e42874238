import { GatewayConfig } from '../config/gateway.config';
import { OperatorKeyRepository } from './operator-key.repository';
import { NO_OPERATOR_KEY, OperatorKeysBootstrap } from './operator-keys.bootstrap';

/** The table as a set of hashes' owners: the environment's key, and any made by the CLI. */
function keysWith(existing: number) {
  const added: string[] = [];
  const keys = {
    addEnvironmentKey: async (key: string) => void added.push(key),
    countActive: async () => existing + added.length,
  } as unknown as OperatorKeyRepository;
  return { keys, added };
}

const bootstrap = (adminKey: string, keys: OperatorKeyRepository) =>
  new OperatorKeysBootstrap(Object.assign(new GatewayConfig(), { ADMIN_API_KEY: adminKey }), keys).onApplicationBootstrap();

describe('OperatorKeysBootstrap', () => {
  it('adds ADMIN_API_KEY to the operator keys at start', async () => {
    const { keys, added } = keysWith(0);
    await bootstrap('k'.repeat(32), keys);
    expect(added).toEqual(['k'.repeat(32)]);
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
