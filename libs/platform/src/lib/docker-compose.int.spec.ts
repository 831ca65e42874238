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

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const composeFile = join(repoRoot, 'docker-compose.yml');
const sandboxEnvFile = join(repoRoot, 'docker-compose.sandbox.env');
const STACK = ['kafka', 'postgres', 'migrate', ...APP_NAMES];
type Services = Record<string, { environment?: Record<string, string> }>;
/** The secrets the file requires, each set: what `npm run compose:up` generates. */
const SECRETS: Record<string, string> = Object.fromEntries(
  ['ADMIN_API_KEY', 'INTERNAL_SECRET', 'POSTGRES_PASSWORD', ...APP_NAMES.map((app) => `DB_PASSWORD_${pgSchemaOf(app).toUpperCase()}`)].map(
    (name) => [name, 'k'.repeat(44)],
  ),
);

function servicesOf(result: { status: number | null; stdout: string; stderr: string }): Services {
  if (result.status !== 0) throw new Error(`docker-compose config failed (exit ${result.status}):\n${result.stderr}`);
  return (load(result.stdout) as { services: Services }).services;
}

const INSTALL_HINT =
  'docker-compose is not installed, and this test needs it to validate docker-compose.yml ' +
  '(no Docker engine required). Install it with: apt-get install -y docker-compose';

/**
 * `docker-compose config` with only `env` set (or the variables of `envFile`): nothing from the caller's
 * environment or a local .env file.
 */
function composeConfig(env: Record<string, string>, envFile?: string): { status: number | null; stdout: string; stderr: string } {
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
    const r = spawnSync('docker-compose', ['-f', composeFile, '--env-file', envFile, 'config'], {
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

  // docker-compose.spec.ts checks every required variable; Compose itself is asked for two (each call takes seconds).
  it.each(['ADMIN_API_KEY', 'DB_PASSWORD_WITHDRAWALS'])(
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
});
