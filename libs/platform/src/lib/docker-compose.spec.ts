/**
 * Checks docker-compose.yml at the repository root the way Compose itself reads it: `docker-compose
 * config` validates the file, resolves the YAML anchors and the ${VAR:-default} interpolation, and
 * prints the result, which is parsed here. No Docker engine is needed.
 *
 * Debian's docker-compose (1.29, `apt-get install -y docker-compose`) has no `--format json`, so the
 * YAML it prints is parsed with js-yaml. A Compose v2 `docker-compose` binary prints the same shape.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const composeFile = join(repoRoot, 'docker-compose.yml');

const SERVICES = { withdrawals: '3101', events: '3102', 'pix-keys': '3103', customers: '3104', inflows: '3105' } as const;
const APPS = ['gateway', ...Object.keys(SERVICES)] as const;
const INFRA = ['kafka', 'postgres', 'migrate'] as const;

/** The only secret-like values the file may hold: its documented, clearly fake dev defaults. */
const DEV_DEFAULTS = new Set(['change-me-dev-admin-key', 'postgres-dev-password']);

interface Service {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  ports?: Array<{ target?: number | string; published?: number | string } | string>;
  restart?: string;
}
interface ComposeConfig {
  services: Record<string, Service>;
}

const INSTALL_HINT =
  'docker-compose is not installed, and this test needs it to validate docker-compose.yml ' +
  '(no Docker engine required). Install it with: apt-get install -y docker-compose';

/**
 * Runs `docker-compose config` with nothing from the caller's environment or a local .env file, so
 * every ${VAR:-default} resolves to the default committed in the file (npm test, for instance,
 * exports a real ADMIN_API_KEY that must not mask what the file says).
 */
function composeConfig(): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'compose-spec-'));
  try {
    const emptyEnvFile = join(dir, 'empty.env');
    writeFileSync(emptyEnvFile, '');
    const r = spawnSync('docker-compose', ['-f', composeFile, '--env-file', emptyEnvFile, 'config'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: dir },
      timeout: 60_000,
    });
    const error = r.error as NodeJS.ErrnoException | undefined;
    if (error?.code === 'ENOENT') throw new Error(INSTALL_HINT);
    if (error) throw error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dependsOn = (s: Service): Record<string, string | undefined> => {
  const d = s.depends_on ?? {};
  // The short list form has no conditions: report them as missing.
  if (Array.isArray(d)) return Object.fromEntries(d.map((name) => [name, undefined]));
  return Object.fromEntries(Object.entries(d).map(([name, v]) => [name, v?.condition]));
};
const commandOf = (s: Service): string => (Array.isArray(s.command) ? s.command.join(' ') : (s.command ?? ''));
const healthTestOf = (s: Service): string => {
  const t = s.healthcheck?.test;
  return Array.isArray(t) ? t.join(' ') : (t ?? '');
};

/** Values that look like real credentials, whatever the variable is called. */
const SECRET_PATTERNS: Array<[string, RegExp]> = [
  ['private key block', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['hex private key (32 bytes)', /\b(0x)?[0-9a-fA-F]{64}\b/],
  ['AWS access key id', /\b(AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['Stripe-style key', /\b[spr]k_(live|test)_[0-9a-zA-Z]{10,}/],
  ['GitHub token', /\bgh[pousr]_[A-Za-z0-9]{20,}/],
  ['Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['JWT', /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./],
  ['long random-looking token', /[A-Za-z0-9+/_-]{32,}/],
];
const SECRET_NAME = /(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE)/i;

function secretProblems(service: string, env: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(env)) {
    const value = raw === null || raw === undefined ? '' : String(raw);
    if (SECRET_NAME.test(name) && value !== '' && !DEV_DEFAULTS.has(value)) {
      problems.push(`${service}.${name} holds a value that is not a documented dev default`);
    }
    // Credentials inside URLs (postgresql://user:password@host/db).
    for (const m of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:([^@\s]*)@/gi)) {
      const password = decodeURIComponent(m[1]);
      if (password !== '' && !DEV_DEFAULTS.has(password)) problems.push(`${service}.${name} has a URL password that is not a dev default`);
    }
    const withoutDefaults = [...DEV_DEFAULTS].reduce((v, d) => v.split(d).join(''), value);
    for (const [label, pattern] of SECRET_PATTERNS) {
      if (pattern.test(withoutDefaults)) problems.push(`${service}.${name} looks like a ${label}`);
    }
  }
  return problems;
}

describe('docker-compose.yml', () => {
  let result: { status: number | null; stdout: string; stderr: string };
  let config: ComposeConfig;

  beforeAll(() => {
    result = composeConfig();
    if (result.status === 0) config = load(result.stdout) as ComposeConfig;
  }, 60_000);

  const service = (name: string): Service => {
    const s = config?.services?.[name];
    if (!s) throw new Error(`service "${name}" is missing from docker-compose.yml`);
    return s;
  };

  it('is a valid Compose file (docker-compose config exits 0)', () => {
    if (result.status !== 0) throw new Error(`docker-compose config failed (exit ${result.status}):\n${result.stderr}`);
    expect(config.services).toBeDefined();
  });

  it('defines Kafka, PostgreSQL, the migration job and the six apps', () => {
    expect(Object.keys(config.services)).toEqual(expect.arrayContaining([...INFRA, ...APPS]));
  });

  it('runs the official Apache Kafka image in KRaft combined mode, without topic auto-creation', () => {
    const kafka = service('kafka');
    expect(kafka.image).toMatch(/^apache\/kafka:/);
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.environment?.KAFKA_ADVERTISED_LISTENERS).toBe('PLAINTEXT://kafka:9092');
    expect(String(kafka.environment?.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR)).toBe('1');
    expect(String(kafka.environment?.KAFKA_AUTO_CREATE_TOPICS_ENABLE)).toBe('false');
    expect(healthTestOf(kafka)).toContain('--bootstrap-server');
  });

  it('gives PostgreSQL a pg_isready healthcheck and the migration job the shared image', () => {
    expect(service('postgres').image).toMatch(/^postgres:15/);
    expect(healthTestOf(service('postgres'))).toContain('pg_isready');
    const migrate = service('migrate');
    expect(commandOf(migrate)).toBe('npm run db:migrate');
    expect(migrate.image).toBe(service('gateway').image);
    expect(dependsOn(migrate).postgres).toBe('service_healthy');
    expect(migrate.environment?.DATABASE_URL).toMatch(/^postgresql:\/\/.+@postgres:5432\//);
  });

  it.each(APPS)('%s: runs its build output from the shared image, with a /healthz healthcheck', (app) => {
    const s = service(app);
    expect(s.image).toBe(service('migrate').image);
    expect(commandOf(s)).toBe(`node dist/apps/${app}/src/main.js`);
    expect(s.healthcheck?.disable).not.toBe(true);
    expect(healthTestOf(s)).toContain('/healthz');
    expect(s.restart).toBe('unless-stopped');
  });

  it.each(APPS)('%s: waits for healthy Kafka and PostgreSQL and for the migrations', (app) => {
    expect(dependsOn(service(app))).toEqual(
      expect.objectContaining({ kafka: 'service_healthy', postgres: 'service_healthy', migrate: 'service_completed_successfully' }),
    );
  });

  it.each(APPS)('%s: is configured for containers (Kafka, database, listen address)', (app) => {
    const env = service(app).environment ?? {};
    expect(env.KAFKA_BROKERS).toMatch(/^[^:,]+:\d+(,[^:,]+:\d+)*$/);
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/.+@postgres:5432\/\w+/);
    expect(env.HOST).toBe('0.0.0.0');
  });

  it.each(Object.entries(SERVICES))('%s: health server on HEALTH_PORT %s, which its healthcheck probes', (name, port) => {
    const s = service(name);
    expect(String(s.environment?.HEALTH_PORT)).toBe(port);
    expect(healthTestOf(s)).toMatch(new RegExp(`process\\.env\\.HEALTH_PORT|:${port}/healthz`));
  });

  it('gateway: publishes port 3000 and starts after the five services are healthy', () => {
    const gateway = service('gateway');
    expect(String(gateway.environment?.PORT)).toBe('3000');
    expect(healthTestOf(gateway)).toMatch(/process\.env\.PORT|:3000\/healthz/);
    const ports = (gateway.ports ?? []).map((p) => (typeof p === 'string' ? p : `${p.published}:${p.target}`));
    expect(ports).toContainEqual(expect.stringMatching(/(^|:)3000:3000$/));
    const deps = dependsOn(gateway);
    for (const name of Object.keys(SERVICES)) expect({ name, condition: deps[name] }).toEqual({ name, condition: 'service_healthy' });
  });

  it('gateway: sandbox admin key defaults to a clearly fake dev value of 16+ characters', () => {
    const key = String(service('gateway').environment?.ADMIN_API_KEY ?? '');
    expect(DEV_DEFAULTS.has(key)).toBe(true);
    expect(key.length).toBeGreaterThanOrEqual(16);
  });

  it('holds no real-looking secret in any environment, only the documented dev defaults', () => {
    const problems = Object.entries(config.services).flatMap(([name, s]) => secretProblems(name, s.environment ?? {}));
    expect(problems).toEqual([]);
  });

  it('the secret check itself catches real-looking values', () => {
    expect(secretProblems('x', { ADMIN_API_KEY: 'adm_live_Zk3v9QpLr2Xw8TnB5mYc1HdE' })).not.toEqual([]);
    expect(secretProblems('x', { DATABASE_URL: 'postgresql://app:S3cr3t-Pa55@db:5432/partner' })).not.toEqual([]);
    expect(secretProblems('x', { SIGNER: `0x${'ab'.repeat(32)}` })).not.toEqual([]);
    expect(secretProblems('x', { ADMIN_API_KEY: 'change-me-dev-admin-key', DATABASE_URL: 'postgresql://postgres:postgres-dev-password@postgres:5432/partner' })).toEqual([]);
  });
});
