/**
 * Compose itself accepts docker-compose.yml: `docker-compose config` validates the file, resolves the
 * anchors and the interpolation, and prints the result. No Docker engine is needed, only the tool
 * (Debian's docker-compose 1.29, `apt-get install -y docker-compose`, which .ci/run installs). What the
 * file says is checked without the tool by docker-compose.spec.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { APP_NAMES, pgSchemaOf } from '@partner/contracts';

const repoRoot = resolve(__dirname, '..', '..');
const composeFile = join(repoRoot, 'docker-compose.yml');
const localChainsFile = join(repoRoot, 'docker-compose.local-chains.yml');
const sandboxEnvFile = join(repoRoot, 'docker-compose.sandbox.env');
const STACK = ['kafka', 'postgres', 'migrate', ...APP_NAMES];
type Services = Record<
  string,
  {
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition?: string }>;
    secrets?: Array<{ source: string } | string>;
    ports?: unknown[];
  }
>;
/**
 * What the file requires, each set: the secrets `npm run compose:up` generates, the chain nodes and the
 * hot wallet key file (Compose checks the file only when it starts a container).
 */
const SECRETS: Record<string, string> = {
  ...Object.fromEntries(
    [
      'ADMIN_API_KEY',
      'INTERNAL_SECRET',
      'POSTGRES_PASSWORD',
      ...APP_NAMES.map((app) => `DB_PASSWORD_${pgSchemaOf(app).toUpperCase()}`),
    ].map((name) => [name, 'k'.repeat(44)]),
  ),
  CHAIN_RPC_URL_ETH: 'https://eth.node.example/rpc',
  CHAIN_RPC_URL_MATIC: 'https://polygon.node.example/rpc',
  HOT_WALLET_KEY_SECRET_FILE: '/etc/partner/hot-wallet.key',
  DICT_URL: 'https://dict.pi.rsfn.net.br:16422/api/v1',
  DICT_ISPB: '12345678',
  DICT_CERTS_DIR: '/etc/partner/dict',
  SMTP_URL: 'smtps://mailer:secret@smtp.example:465',
  SMTP_FROM: 'Cadastro <nao-responda@example.com.br>',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'token',
};

function configOf(result: { status: number | null; stdout: string; stderr: string }): {
  services: Services;
  secrets?: Record<string, { file?: string }>;
} {
  if (result.status !== 0) throw new Error(`docker-compose config failed (exit ${result.status}):\n${result.stderr}`);
  return load(result.stdout) as { services: Services; secrets?: Record<string, { file?: string }> };
}
const servicesOf = (result: { status: number | null; stdout: string; stderr: string }): Services => configOf(result).services;
const secretNames = (s: Services[string]): string[] => (s.secrets ?? []).map((x) => (typeof x === 'string' ? x : x.source));

const INSTALL_HINT =
  'docker-compose is not installed, and this test needs it to validate docker-compose.yml ' +
  '(no Docker engine required). Install it with: apt-get install -y docker-compose';

/**
 * `docker-compose config` with only `env` set (or the variables of `envFile`): nothing from the caller's
 * environment or a local .env file.
 */
function composeConfig(
  env: Record<string, string>,
  envFile?: string,
  files: string[] = [composeFile],
): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'compose-spec-'));
  try {
    if (!envFile) {
      envFile = join(dir, 'spec.env');
      writeFileSync(
        envFile,
        Object.entries(env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
    }
    const r = spawnSync('docker-compose', [...files.flatMap((file) => ['-f', file]), '--env-file', envFile, 'config'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: dir },
      timeout: 60_000,
    });
    const error: NodeJS.ErrnoException | undefined = r.error;
    if (error?.code === 'ENOENT') throw new Error(INSTALL_HINT);
    if (error) throw error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docker-compose.yml, read by docker-compose', () => {
  it("is a valid Compose file with the stack's services once every secret is set, sandbox off", () => {
    const services = servicesOf(composeConfig(SECRETS));
    expect(Object.keys(services)).toEqual(expect.arrayContaining(STACK));
    expect(String(services.gateway.environment?.SANDBOX)).toBe('false');
    // The nested anchors (Kafka settings inside the apps' shared environment) resolve as intended.
    expect(services.withdrawals.environment).toMatchObject({
      KAFKA_BROKERS: 'kafka:9092',
      KAFKA_SSL: 'false',
      KAFKA_CREATE_TOPICS: 'false',
    });
    expect(services.withdrawals.environment?.DATABASE_URL).toMatch(/^postgresql:\/\/svc_withdrawals:/);
  }, 60_000);

  it('gives the withdrawals service its nodes and the hot wallet key as a secret file, not a variable', () => {
    const config = configOf(composeConfig(SECRETS));
    expect(config.services.withdrawals.environment).toMatchObject({
      CHAIN_RPC_URL_ETH: SECRETS.CHAIN_RPC_URL_ETH,
      CHAIN_RPC_URL_MATIC: SECRETS.CHAIN_RPC_URL_MATIC,
      CHAIN_ID_ETH: '1',
      CHAIN_ID_MATIC: '137',
      HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key',
    });
    expect(secretNames(config.services.withdrawals)).toEqual(['hot_wallet_key']);
    expect(config.secrets?.hot_wallet_key?.file).toBe(SECRETS.HOT_WALLET_KEY_SECRET_FILE);
  }, 60_000);

  // docker-compose.spec.ts checks every required variable; Compose itself is asked for two (each call takes seconds).
  it.each(['ADMIN_API_KEY', 'DB_PASSWORD_WITHDRAWALS', 'CHAIN_RPC_URL_ETH', 'HOT_WALLET_KEY_SECRET_FILE', 'DICT_URL', 'SMTP_URL'])(
    'refuses the file without %s, saying so',
    (name) => {
      const { [name]: _missing, ...others } = SECRETS;
      const result = composeConfig(others);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(name);
    },
    60_000,
  );

  it('reads docker-compose.sandbox.env as its env file, which turns the sandbox on', () => {
    const services = servicesOf(composeConfig({}, sandboxEnvFile));
    expect(Object.keys(services)).toEqual(expect.arrayContaining(STACK));
    expect(String(services.gateway.environment?.SANDBOX)).toBe('true');
  }, 60_000);

  it('with docker-compose.local-chains.yml and the sandbox env file: the chains, their setup step, and the withdrawals service after it', () => {
    const services = servicesOf(composeConfig({}, sandboxEnvFile, [composeFile, localChainsFile]));
    expect(Object.keys(services)).toEqual(expect.arrayContaining([...STACK, 'chain-eth', 'chain-matic', 'chain-setup']));
    expect(services.withdrawals.depends_on).toMatchObject({
      'chain-setup': { condition: 'service_completed_successfully' },
      migrate: { condition: 'service_completed_successfully' },
      kafka: { condition: 'service_healthy' },
    });
    expect(services.withdrawals.environment).toMatchObject({ CHAIN_RPC_URL_ETH: 'http://chain-eth:8545', CHAIN_ID_ETH: '31337' });
    expect(secretNames(services['chain-setup'])).toEqual(['hot_wallet_key']);
    expect(JSON.stringify(services['chain-eth'].ports)).toContain('127.0.0.1');
  }, 60_000);
});
