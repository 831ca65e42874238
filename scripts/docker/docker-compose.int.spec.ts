/**
 * Compose itself accepts the files: `docker-compose config` (Debian's 1.29, which .ci/run installs; no engine
 * needed) validates them, resolves the anchors and the interpolation, and prints the result. What the files
 * say is checked without the tool by docker-compose.spec.ts.
 */
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { APP_NAMES } from '@partner/contracts';
import { ComposeConfig, EXAMPLE_PRODUCTION_ENV as PRODUCTION_ENV, Service } from './compose-variables';

const repoRoot = resolve(__dirname, '..', '..');
const sandboxEnvFile = join(repoRoot, 'docker-compose.sandbox.env');
const STACK = ['kafka', 'postgres', 'migrate', ...APP_NAMES];
const secretNames = (s: Service): string[] => (s.secrets ?? []).map((x) => (typeof x === 'string' ? x : x.source));

/** `docker-compose config` with only `env` set (or the variables of `envFile`): nothing from this environment or a local .env. */
function composeConfig(env: Record<string, string>, envFile?: string, localChains = false): SpawnSyncReturns<string> {
  const dir = mkdtempSync(join(tmpdir(), 'compose-spec-'));
  try {
    const file = envFile ?? join(dir, 'spec.env');
    if (!envFile)
      writeFileSync(
        file,
        Object.entries(env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
    const files = ['docker-compose.yml', ...(localChains ? ['docker-compose.local-chains.yml'] : [])].flatMap((f) => [
      '-f',
      join(repoRoot, f),
    ]);
    const childEnv = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: dir };
    const r = spawnSync('docker-compose', [...files, '--env-file', file, 'config'], {
      cwd: dir,
      encoding: 'utf8',
      env: childEnv,
      timeout: 60_000,
    });
    const error: NodeJS.ErrnoException | undefined = r.error;
    if (error?.code === 'ENOENT')
      throw new Error(
        'docker-compose is not installed, and this test needs it to validate docker-compose.yml (no Docker engine required). ' +
          'Install it with: apt-get install -y docker-compose',
      );
    if (error) throw error;
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function configOf(...args: Parameters<typeof composeConfig>): ComposeConfig {
  const r = composeConfig(...args);
  if (r.status !== 0) throw new Error(`docker-compose config failed (exit ${r.status}):\n${r.stderr}`);
  return load(r.stdout) as ComposeConfig;
}

describe('docker-compose.yml, read by docker-compose', () => {
  it("is a valid Compose file with the stack's services once every required variable is set, sandbox off; the withdrawals service gets its nodes and the two hot wallet keys as secret files", () => {
    const { services, secrets } = configOf(PRODUCTION_ENV);
    expect(Object.keys(services)).toEqual(expect.arrayContaining(STACK));
    expect(String(services.gateway.environment?.SANDBOX)).toBe('false');
    // The nested anchors (Kafka settings inside the apps' shared environment) resolve as intended.
    expect(services.withdrawals.environment).toMatchObject({
      KAFKA_BROKERS: 'kafka:9092',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: '/run/secrets/kafka_tls_cert',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'withdrawals',
      KAFKA_SASL_PASSWORD_FILE: '/run/secrets/kafka_password_withdrawals',
      KAFKA_CREATE_TOPICS: 'false',
      // The nodes' URLs (a provider's carries its key) are secret files, never variables.
      CHAIN_RPC_URL_ETH_FILE: '/run/secrets/chain_rpc_url_eth',
      CHAIN_RPC_URL_MATIC_FILE: '/run/secrets/chain_rpc_url_matic',
      CHAIN_ID_ETH: '1',
      CHAIN_ID_MATIC: '137',
      HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,/run/secrets/hot_wallet_key_2',
    });
    // Its own role, its password a secret file (COMPOSE_SECRETS_DIR), not in the URL.
    expect(services.withdrawals.environment?.DATABASE_URL).toMatch(/^postgresql:\/\/svc_withdrawals@/);
    expect(services.withdrawals.environment?.DATABASE_PASSWORD_FILE).toBe('/run/secrets/db_password_withdrawals');
    expect(services.withdrawals.environment).not.toHaveProperty('CHAIN_RPC_URL_ETH');
    expect(secretNames(services.withdrawals)).toEqual([
      'hot_wallet_key',
      'hot_wallet_key_2',
      'internal_secret',
      'db_password_withdrawals',
      'kafka_password_withdrawals',
      'kafka_tls_cert',
      'chain_rpc_url_eth',
      'chain_rpc_url_matic',
      'chain_rpc_url_2_eth',
      'chain_rpc_url_2_matic',
      'remote_signer_url',
      'remote_signer_url_eth',
      'remote_signer_url_matic',
    ]);
    expect(secrets?.chain_rpc_url_eth?.file).toBe(`${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/chain_rpc_url_eth`);
    expect(secrets?.kafka_password_withdrawals?.file).toBe(`${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/kafka_password_withdrawals`);
    expect(secrets?.kafka_tls_cert?.file).toBe(PRODUCTION_ENV.KAFKA_TLS_CERT_FILE);
    expect(secrets?.db_password_withdrawals?.file).toBe(`${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/db_password_withdrawals`);
    expect(secrets?.hot_wallet_key?.file).toBe(PRODUCTION_ENV.HOT_WALLET_KEY_SECRET_FILE);
    expect(secrets?.hot_wallet_key_2?.file).toBe(PRODUCTION_ENV.HOT_WALLET_KEY_2_SECRET_FILE);
    // inflows' Pix API: its URL, its client's secret a secret file too.
    expect(services.inflows.environment).toMatchObject({
      PIX_API_URL: PRODUCTION_ENV.PIX_API_URL,
      PIX_API_CLIENT_SECRET_FILE: '/run/secrets/pix_api_client_secret',
    });
    expect(services.inflows.environment).not.toHaveProperty('PIX_API_CLIENT_SECRET');
    expect(secretNames(services.inflows)).toContain('pix_api_client_secret');
    expect(secrets?.pix_api_client_secret?.file).toBe(`${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/pix_api_client_secret`);
  }, 60_000);

  // docker-compose.spec.ts checks every required variable; Compose itself is asked for a few (each call takes seconds).
  it.each([
    'COMPOSE_SECRETS_DIR',
    'HOT_WALLET_KEY_SECRET_FILE',
    'HOT_WALLET_KEY_2_SECRET_FILE',
    'KAFKA_TLS_CERT_FILE',
    'DICT_URL',
    'PIX_API_URL',
    'SMTP_FROM',
  ])(
    'refuses the file without %s, saying so',
    (name) => {
      const { [name]: _missing, ...others } = PRODUCTION_ENV;
      const result = composeConfig(others);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(name);
    },
    60_000,
  );

  it('reads docker-compose.sandbox.env as its env file, which turns the sandbox on', () => {
    const { services } = configOf({}, sandboxEnvFile);
    expect(Object.keys(services)).toEqual(expect.arrayContaining(STACK));
    expect(String(services.gateway.environment?.SANDBOX)).toBe('true');
  }, 60_000);

  it('with docker-compose.local-chains.yml and the sandbox env file: the chains, their setup step, and the withdrawals service after it', () => {
    const { services, secrets } = configOf({}, sandboxEnvFile, true);
    expect(Object.keys(services)).toEqual(expect.arrayContaining([...STACK, 'chain-eth', 'chain-matic', 'chain-setup']));
    expect(services.withdrawals.depends_on).toMatchObject({
      'chain-setup': { condition: 'service_completed_successfully' },
      migrate: { condition: 'service_completed_successfully' },
      kafka: { condition: 'service_healthy' },
    });
    expect(services.withdrawals.environment).toMatchObject({
      CHAIN_RPC_URL_ETH_FILE: '/run/secrets/chain_rpc_url_eth',
      CHAIN_ID_ETH: '31337',
    });
    // The sandbox's node URL, in its committed secret file.
    expect(readFileSync(String(secrets?.chain_rpc_url_eth?.file), 'utf8')).toBe('http://chain-eth:8545');
    expect(secretNames(services['chain-setup'])).toEqual(['hot_wallet_key', 'hot_wallet_key_2']);
    expect(services['chain-setup'].environment?.HOT_WALLET_KEY_FILE).toBe('/run/secrets/hot_wallet_key,/run/secrets/hot_wallet_key_2');
    expect(JSON.stringify(services['chain-eth'].ports)).toContain('127.0.0.1');
    // inflows refunds through the Pix API test server, which shares its client's secret file.
    expect(services.inflows.environment).toMatchObject({ PIX_API_URL: 'http://pix-api-test:8480', LOCAL_COUNTERPARTIES: 'true' });
    expect(services.inflows.depends_on).toMatchObject({ 'pix-api-test': { condition: 'service_started' } });
    expect(secretNames(services['pix-api-test'])).toEqual(['pix_api_client_secret']);
    expect(services['pix-api-test'].environment?.PIX_API_CLIENT_ID).toBe(services.inflows.environment?.PIX_API_CLIENT_ID);
  }, 60_000);
});
