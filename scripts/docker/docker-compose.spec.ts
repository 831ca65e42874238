/**
 * docker-compose.yml (alone and with docker-compose.local-chains.yml) as Compose reads it, with nothing
 * installed: js-yaml's merge tag resolves the anchors and `<<` keys (Compose's YAML 1.1), and ${VAR...} is
 * interpolated from only what a test sets or the sandbox env file, so every other setting is the file's
 * default. That Compose itself accepts the file: docker-compose.int.spec.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { APP_NAMES, GATEWAY, pgSchemaOf, SERVICE_CATALOGUE, SERVICE_NAMES } from '@partner/contracts';
import { LOCAL_TOKEN_ADDRESS } from '../chain/local-chains';
import { ownNodeFlagsOf } from '../lib/services';
import {
  ComposeConfig,
  EXAMPLE_CHAIN_ENV,
  EXAMPLE_PRODUCTION_ENV as PRODUCTION_ENV,
  HOT_WALLET_KEY_SECRETS,
  SECRET_VARIABLES as SECRETS,
  Service,
} from './compose-variables';

const repoRoot = resolve(__dirname, '..', '..');
const read = (...path: string[]): string => readFileSync(join(repoRoot, ...path), 'utf8');
const rawCompose = read('docker-compose.yml');
const rawLocalChains = read('docker-compose.local-chains.yml');
const dockerfile = read('Dockerfile');
const nginxConfig = read('deploy', 'nginx', 'gateway.conf');
const sandboxEnv = parseEnv(read('docker-compose.sandbox.env')) as Record<string, string>;

// Checked against the apps' catalogue (libs/contracts, services.catalogue.ts).
const SERVICES = Object.fromEntries(SERVICE_NAMES.map((name) => [name, String(SERVICE_CATALOGUE[name].healthPort)]));
const APPS = [GATEWAY.name, ...SERVICE_NAMES] as const;
/** An app run again in another role: the withdrawals app as a payout worker (PAYOUTS_ONLY, ADR 0031). */
const PAYOUT_WORKER = 'payouts';
/** Every service that runs an app: the catalogue's and the payout worker. */
const APP_SERVICES = [...APPS, PAYOUT_WORKER] as const;
const INFRA = ['kafka', 'postgres', 'migrate', 'topics', 'proxy'] as const;

/** The only secret-like values the files may hold: their documented, clearly fake dev defaults. */
const DEV_DEFAULTS = new Set([
  'change-me-dev-admin-key',
  // The local notification sinks' fake Twilio credentials (libs/notification-sinks DEV_SINKS).
  'AC00000000000000000000000000000000',
  'local-sms-sink-token',
  'change-me-dev-internal-secret-of-32-characters',
  'postgres-dev-password',
  ...APP_NAMES.map((app) => `${app}-dev-password`),
]);

/** Compose's interpolation: `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`, `${VAR}`, `$$`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g, (match, name: string, colon, op, arg: string) => {
    if (match === '$$') return '$';
    if (name in env && (colon !== ':' || env[name] !== '')) return env[name];
    if (op === '?') throw new Error(`required variable ${name} is missing a value: ${arg}`);
    return op === '-' ? arg : '';
  });
}

const interpolateAll = (node: unknown, env: Record<string, string>): unknown => {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((n) => interpolateAll(n, env));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)]));
  return node;
};

const parse = (text: string): ComposeConfig => load(text, { schema: CORE_SCHEMA.withTags(mergeTag) }) as ComposeConfig;

/**
 * A file as Compose reads it: interpolated; environment values as strings, one without a value (`NAME:`)
 * taken from the environment when set there, else left out.
 */
function loadFile(text: string, env: Record<string, string>): ComposeConfig {
  const config = interpolateAll(parse(text), env) as ComposeConfig;
  for (const s of Object.values(config.services ?? {})) {
    if (!s.environment) continue;
    // Numbers and booleans as Compose passes them: their YAML text.
    const entries = Object.entries(s.environment as Record<string, string | number | boolean | null>).map(([name, v]) => [
      name,
      v === null ? env[name] : String(v),
    ]);
    s.environment = Object.fromEntries(entries.filter(([, v]) => v !== undefined));
  }
  return config;
}

const loadCompose = (env: Record<string, string>): ComposeConfig => loadFile(rawCompose, env);
/** A production start with some settings added. */
const withEnv = (over: Record<string, string>): ComposeConfig => loadCompose({ ...PRODUCTION_ENV, ...over });

/** Compose's merge of a later file into an earlier one: mappings key by key, sequences joined (as ports, secrets). */
const merge = (base: unknown, over: unknown): unknown => {
  if (Array.isArray(base) && Array.isArray(over)) return [...new Set([...base, ...over])];
  const isMap = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);
  if (!isMap(base) || !isMap(over)) return over;
  return { ...base, ...Object.fromEntries(Object.entries(over).map(([k, v]) => [k, k in base ? merge(base[k], v) : v])) };
};

/** docker-compose.yml with docker-compose.local-chains.yml over it, as `-f ... -f ...` (or COMPOSE_FILE) reads them. */
const loadWithLocalChains = (env: Record<string, string>): ComposeConfig =>
  merge(loadCompose(env), loadFile(rawLocalChains, env)) as ComposeConfig;

/** The pool's key secrets, and where the withdrawals service reads them (HOT_WALLET_KEY_FILE): the files Compose mounts. */
const KEY_SECRETS = HOT_WALLET_KEY_SECRETS.map(({ secret }) => secret);
const KEY_FILES_IN_CONTAINER = KEY_SECRETS.map((secret) => `/run/secrets/${secret}`).join(',');
/** Variables that would carry a key (or what derives one) itself rather than the path of a file holding it. */
const keyVariables = (env: Record<string, unknown> = {}): string[] =>
  Object.keys(env).filter(
    (name) => /(PRIVATE|WALLET|SIGNER|MNEMONIC|SEED)/.test(name) && /(KEY|MNEMONIC|SEED|PHRASE)/.test(name) && !name.endsWith('_FILE'),
  );

/** What an app waits for: the broker and the database healthy, the deploy steps done. */
const AFTER_DEPLOY_STEPS = {
  kafka: 'service_healthy',
  postgres: 'service_healthy',
  migrate: 'service_completed_successfully',
  topics: 'service_completed_successfully',
};
/** Conditions by dependency; the short list form has none: reported as missing. */
const dependsOn = ({ depends_on: d = {} }: Service): Record<string, string | undefined> =>
  Array.isArray(d)
    ? Object.fromEntries(d.map((name) => [name, undefined]))
    : Object.fromEntries(Object.entries(d).map(([name, v]) => [name, v?.condition]));
/** A published port as Compose's short syntax writes it (`[ip:]published:target`). */
const portOf = (p: NonNullable<Service['ports']>[number] | undefined): string =>
  p === undefined ? '' : typeof p === 'string' ? p : `${p.published}:${p.target}`;
const joined = (x: string[] | string | undefined): string => (Array.isArray(x) ? x.join(' ') : (x ?? ''));
const commandOf = (s: Service): string => joined(s.command);
const healthTestOf = (s: Service): string => joined(s.healthcheck?.test);
/** The Dockerfile stage `FROM ... AS name`. */
const stage = (name: string): string =>
  dockerfile.split(/^FROM /m).find((s) => new RegExp(`AS ${name}\\s`).test(`${s.split('\n')[0]}\n`)) ?? '';
/** Whether every use of the variable in docker-compose.yml is required (`${NAME:?...}`): no default to fall back on. */
const requiredEverywhere = (name: string): boolean | undefined =>
  rawCompose.match(new RegExp(`\\$\\{${name}(?![A-Z_])[^}]*\\}`, 'g'))?.every((use) => use.startsWith(`\${${name}:?`));

/** One service builds each image tag (two exports of one tag fail). */
const expectOneBuilderPerTag = (c: ComposeConfig): void => {
  const tags = Object.values(c.services).flatMap((s) => (s.build ? [String(s.image)] : []));
  expect(tags).toEqual([...new Set(tags)]);
};
/** `names` run `builder`'s image without building or pulling it. */
const expectRunsImageOf = (c: ComposeConfig, builder: string, names: readonly string[]): void => {
  for (const name of names) {
    const { image, build, pull_policy } = c.services[name];
    expect({ name, image, build, pull_policy }).toEqual({ name, image: c.services[builder].image, build: undefined, pull_policy: 'never' });
  }
};

/** A 20-byte EVM address (a token contract, an account): public, never a secret. */
const ADDRESS = /\b0x[0-9a-fA-F]{40}\b/g;
const HEX_KEY = /\b(0x)?[0-9a-fA-F]{64}\b/g;
/** Files the container reads secrets from (Compose's secrets), one or a comma list: paths, not the secrets. */
const SECRET_FILE_PATH = /^\/run\/(secrets|dict)\/[a-z0-9_.-]+(,\/run\/(secrets|dict)\/[a-z0-9_.-]+)*$/;
const SECRET_NAME = /(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE)/i;
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

function secretProblems(service: string, env: Record<string, string> = {}): string[] {
  return Object.entries(env).flatMap(([name, value]) => {
    const problems: string[] = [];
    if (SECRET_NAME.test(name) && value !== '' && !DEV_DEFAULTS.has(value) && !SECRET_FILE_PATH.test(value))
      problems.push(`${service}.${name} holds a value that is not a documented dev default`);
    // Credentials inside URLs (postgresql://user:password@host/db).
    for (const [, password] of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:([^@\s]*)@/gi))
      if (password !== '' && !DEV_DEFAULTS.has(decodeURIComponent(password)))
        problems.push(`${service}.${name} has a URL password that is not a dev default`);
    // A path to a secret file names the secret, it holds none.
    if (SECRET_FILE_PATH.test(value)) return problems;
    const withoutDefaults = [...DEV_DEFAULTS].reduce((v, d) => v.split(d).join(''), value).replace(ADDRESS, '');
    for (const [label, pattern] of SECRET_PATTERNS)
      if (pattern.test(withoutDefaults)) problems.push(`${service}.${name} looks like a ${label}`);
    return problems;
  });
}

describe('docker-compose.yml', () => {
  const config = loadCompose(PRODUCTION_ENV);
  const sandbox = loadCompose(sandboxEnv);
  const service = (name: string): Service => {
    const s = config.services[name];
    if (!s) throw new Error(`service "${name}" is missing from docker-compose.yml`);
    return s;
  };

  it("is read with Compose's interpolation rules", () => {
    expect(interpolate('${A:-x}/${B-y}/${C}/$$D', {})).toBe('x/y//$D');
    expect(interpolate('${A:-x}/${A-y}/${A}', { A: '' })).toBe('x//');
    expect(() => interpolate('${A:?say why}', {})).toThrow('say why');
    expect(interpolate('${A:?say why}', { A: 'set' })).toBe('set');
  });

  it('builds each image tag in one service only (two exports of one tag fail), the others run it without building', () => {
    expectOneBuilderPerTag(config);
    // The apps' image is the Dockerfile's runtime stage (production dependencies only); the deploy steps' its tools stage.
    expect(service('gateway').build).toMatchObject({ target: 'runtime' });
    expect(service('migrate').build).toMatchObject({ target: 'tools' });
    expect(service('gateway').image).not.toBe(service('migrate').image);
    expectRunsImageOf(config, 'gateway', [...SERVICE_NAMES, PAYOUT_WORKER]);
    expectRunsImageOf(config, 'migrate', ['topics']);
  });

  it('Dockerfile: the runtime stage holds dist/ and production dependencies only, on a Node LTS newer than 20, as a non-root user', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-/m);
    expect(stage('runtime')).toMatch(/^USER node$/m);
    expect(stage('runtime').match(/^COPY .*/gm)).toEqual([
      'COPY --from=prod-deps /app/node_modules ./node_modules',
      'COPY --from=build /app/dist ./dist',
      'COPY package.json ./',
    ]);
    // The install npm test runs its end-to-end stack from (scripts/lib/runtime-tree.ts), flag for flag.
    const runtimeTree = read('scripts', 'lib', 'runtime-tree.ts');
    const flags = JSON.parse((/RUNTIME_NPM_CI = (\[[^\]]*\])/.exec(runtimeTree)?.[1] ?? '[]').replace(/'/g, '"')) as string[];
    expect(flags).toEqual(expect.arrayContaining(['ci', '--omit=dev']));
    expect(stage('prod-deps')).toContain(`RUN npm ${flags.join(' ')}`);
    expect(stage('deps')).toMatch(/RUN npm ci /);
    // The reviewed patches (patches/, ADR 0027), which --ignore-scripts leaves to an explicit step: applied in
    // the deps stage, every patched package copied from there into the production tree, and in the runtime tree.
    expect(stage('deps')).toMatch(/node \S*node_modules\/patch-package\/index\.js --error-on-fail/);
    const patched = readdirSync(join(repoRoot, 'patches')).map((file) => file.split('+')[0]);
    expect(patched).toContain('kafkajs');
    for (const name of patched) expect(stage('prod-deps')).toContain(`COPY --from=deps /app/node_modules/${name} ./node_modules/${name}`);
    // No BuildKit-only syntax: Compose 1.x builds with the legacy builder.
    expect(dockerfile).not.toMatch(/^RUN --mount/m);
    expect(runtimeTree).toContain("node_modules/patch-package/index.js'), '--error-on-fail'");
    expect(stage('tools')).toMatch(/^USER node$/m);
  });

  it("Dockerfile: the apps run with npm start's heap and malloc settings (scripts/lib/services.ts), which no service overrides", () => {
    const services = read('scripts', 'lib', 'services.ts');
    const defaultOf = (variable: string) => new RegExp(`process\\.env\\.${variable} \\?\\? '([^']*)'`).exec(services)?.[1];
    const nodeFlags = defaultOf('APP_NODE_OPTIONS');
    const malloc = defaultOf('APP_MALLOC_ENV')?.split(/\s+/).filter(Boolean) ?? [];
    expect(nodeFlags).toMatch(/--max-old-space-size=/);
    expect(malloc).not.toEqual([]);
    expect(stage('runtime')).toContain(`NODE_OPTIONS="${nodeFlags}"`);
    for (const setting of malloc) expect(stage('runtime')).toMatch(new RegExp(`^\\s+${setting}( \\\\)?$`, 'm'));
    const overridden = APP_SERVICES.flatMap((name) =>
      Object.keys(service(name).environment ?? {})
        .filter((key) => key === 'NODE_OPTIONS' || key.startsWith('MALLOC_'))
        .map((key) => `${name}.${key}`),
    );
    expect(overridden).toEqual([]);
  });

  it.each([...Object.keys(EXAMPLE_CHAIN_ENV), 'COMPOSE_SECRETS_DIR', 'ADMIN_API_KEY', 'POSTGRES_PASSWORD'])(
    'refuses to start without %s (no default), and runs outside the sandbox unless asked',
    (name) => {
      const { [name]: _left, ...others } = PRODUCTION_ENV;
      expect(() => loadCompose(others)).toThrow(new RegExp(`required variable ${name} `));
      expect(requiredEverywhere(name)).toBe(true);
      expect(service('gateway').environment?.SANDBOX).toBe('false');
    },
  );

  it("keeps every secret of the deployment in a file of COMPOSE_SECRETS_DIR, a Compose secret its readers mount and read as <NAME>_FILE; no running service's environment holds one", () => {
    const mounted = (name: string) => (service(name).secrets ?? []).map((s) => (typeof s === 'string' ? s : s.source));
    for (const variable of SECRETS) {
      const secret = variable.toLowerCase();
      expect(config.secrets?.[secret]).toEqual({ file: `${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/${secret}` });
    }
    const running = Object.keys(config.services).filter((name) => name !== 'tools');
    for (const name of running) {
      const env = service(name).environment ?? {};
      // Each file it is told to read is one it mounts.
      for (const [key, value] of Object.entries(env).filter(([key]) => key.endsWith('_FILE') && key !== 'HOT_WALLET_KEY_FILE'))
        if (value.startsWith('/run/secrets/'))
          expect({ name, key, mounted: mounted(name) }).toEqual({
            name,
            key,
            mounted: expect.arrayContaining([value.slice('/run/secrets/'.length)]),
          });
      // No secret's value anywhere in it: not as a variable, not inside a URL.
      const holding = Object.entries(env).filter(([, value]) => SECRETS.some((s) => value.includes(PRODUCTION_ENV[s])));
      expect({ name, holding }).toEqual({ name, holding: [] });
    }
    // Who reads what: the apps INTERNAL_SECRET and their own role's password; the gateway the operator key;
    // migrate the owner's password and every role's; PostgreSQL the owner's.
    for (const app of APP_SERVICES)
      expect(mounted(app)).toEqual(
        expect.arrayContaining(['internal_secret', `db_password_${pgSchemaOf(app === PAYOUT_WORKER ? 'withdrawals' : app)}`]),
      );
    expect(mounted('gateway')).toContain('admin_api_key');
    expect(mounted('migrate').sort()).toEqual(['postgres_password', ...APPS.map((app) => `db_password_${pgSchemaOf(app)}`)].sort());
    expect(mounted('postgres')).toEqual(['postgres_password']);
    expect(service('postgres').environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  });

  it("names every base image by a variable, official by default; the Dockerfile's default Node image is the same", () => {
    const variables = ['NODE_IMAGE', 'KAFKA_IMAGE', 'POSTGRES_IMAGE', 'NGINX_IMAGE'];
    const defaults = Object.fromEntries(variables.map((v) => [v, new RegExp(`\\$\\{${v}:-([^}]+)\\}`).exec(rawCompose)?.[1]]));
    expect(defaults).toEqual({
      NODE_IMAGE: expect.stringMatching(/^node:24-/),
      KAFKA_IMAGE: expect.stringMatching(/^apache\/kafka:/),
      POSTGRES_IMAGE: expect.stringMatching(/^postgres:15/),
      NGINX_IMAGE: expect.stringMatching(/^nginx:/),
    });
    expect(dockerfile).toContain(`ARG NODE_IMAGE=${defaults.NODE_IMAGE}\n`);
    const custom = withEnv({
      NODE_IMAGE: 'mirror.example/node:24',
      KAFKA_IMAGE: 'k:1',
      POSTGRES_IMAGE: 'p:15',
      NGINX_IMAGE: 'n:1',
    }).services;
    expect([custom.kafka.image, custom.postgres.image, custom.proxy.image]).toEqual(['k:1', 'p:15', 'n:1']);
    for (const s of [custom.gateway, custom.migrate]) expect(s.build).toMatchObject({ args: { NODE_IMAGE: 'mirror.example/node:24' } });
  });

  it('gateway: its admin port (operator API, /readyz, /metrics) reaches the host through the proxy, on the loopback only', () => {
    const adminPort = service('gateway').environment?.ADMIN_PORT;
    expect(adminPort).toBe(String(GATEWAY.adminPort));
    expect(adminPort).not.toBe(service('gateway').environment?.PORT);
    // Only the proxy publishes anything: the database, the broker and the apps stay on the compose network.
    expect(Object.keys(config.services).filter((name) => (service(name).ports ?? []).length > 0)).toEqual(['proxy']);
    expect(service('proxy').ports).toContain('127.0.0.1:3100:8081');
    expect(withEnv({ OPERATOR_PORT: '9100' }).services.proxy.ports).toContain('127.0.0.1:9100:8081');
    expect(nginxConfig.slice(nginxConfig.indexOf('listen 8081;'))).toContain(`set $gateway http://gateway:${adminPort};`);
  });

  it("proxy: the public port passes the partner API, the Pix provider's route and document, /docs and /healthz only; the rest is 404 before the gateway; no version shown; bodies capped", () => {
    const publicServer = nginxConfig.slice(nginxConfig.indexOf('listen 8443 ssl;'), nginxConfig.indexOf('listen 8081;'));
    const passes = [...publicServer.matchAll(/location ([^{]+)\{[^}]*proxy_pass/g)].map((m) => m[1].trim());
    expect(passes).toEqual(['~ ^/(partner/v1/|provider/v2/|provider/docs/|sandbox/v1/|docs/|docs$|healthz$)']);
    const allowed = new RegExp(passes[0].slice(2));
    const passed =
      '/partner/v1/withdrawals/usdt /provider/v2/pix/inflows /provider/docs/openapi.json /docs /docs/openapi.json /healthz /sandbox/v1/partners';
    const refused =
      '/admin/v1/partners /readyz /metrics /internal/queries /healthzz /docsx / /partner/v2/x /provider/v1/pix/inflows /provider/v3/x';
    expect(passed.split(' ').filter((path) => !allowed.test(path))).toEqual([]);
    expect(refused.split(' ').filter((path) => allowed.test(path))).toEqual([]);
    expect(publicServer).toMatch(/location \/ \{[^}]*return 404 /);
    expect(nginxConfig).toMatch(/^server_tokens off;$/m);
    expect(nginxConfig).toMatch(/^client_body_timeout \d+s;$/m);
  });

  it("proxy: X-Forwarded-For is overwritten with the proxy's peer on both ports, and the gateway trusts that one hop", () => {
    const forwarded = [...nginxConfig.matchAll(/proxy_set_header X-Forwarded-For (\S+);/g)].map((m) => m[1]);
    // Appending ($proxy_add_x_forwarded_for) would keep what the client wrote in front of it.
    expect(forwarded).toEqual(['$remote_addr', '$remote_addr']);
    expect(String(service('gateway').environment?.TRUST_PROXY_HOPS)).toBe('1');
  });

  it('creates the topics in a deploy step with a configurable layout; the apps only check them', () => {
    const topics = service('topics');
    expect(commandOf(topics)).toBe('node dist/deploy-steps/topics.js');
    expect(dependsOn(topics).kafka).toBe('service_healthy');
    expect(topics.environment).toMatchObject({ KAFKA_PARTITIONS: '6', KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '1' });
    const layout = { KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' };
    expect(withEnv(layout).services.topics.environment).toMatchObject(layout);
    expect(APP_SERVICES.filter((app) => service(app).environment?.KAFKA_CREATE_TOPICS !== 'false')).toEqual([]);
  });

  it('passes Kafka TLS and SASL settings to the apps and the topics step alike', () => {
    const kafka = { KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'pw' };
    const managed = withEnv(kafka);
    for (const name of ['topics', ...APP_SERVICES])
      expect({ name, ...managed.services[name].environment }).toMatchObject({ name, ...kafka });
  });

  it.each(APPS)("%s: its own database role, the apps' image with its node flags, a /readyz healthcheck, after the deploy steps", (app) => {
    const s = service(app);
    const env = s.environment ?? {};
    // Its own role, which the migrate step creates with the same password; the owner's credentials are the migrate step's alone.
    const schema = pgSchemaOf(app);
    const url = new URL(String(env.DATABASE_URL));
    expect(url.username).toBe(`svc_${schema}`);
    // The password from the secret file the migrate step sets on the role, never in the URL.
    expect(url.password).toBe('');
    expect(env.DATABASE_PASSWORD_FILE).toBe(`/run/secrets/db_password_${schema}`);
    expect(service('migrate').environment?.[`DB_PASSWORD_${schema.toUpperCase()}_FILE`]).toBe(env.DATABASE_PASSWORD_FILE);
    expect(url.username).not.toBe(new URL(String(service('migrate').environment?.DATABASE_URL)).username);
    // Its own node flags on the command line (a later V8 flag wins over NODE_OPTIONS'), as `npm start` runs it.
    expect(s.image).toMatch(/^partner-service:/);
    expect(commandOf(s)).toBe(['node', ...ownNodeFlagsOf(app), `dist/apps/${app}/src/main.js`].join(' '));
    expect(s.healthcheck?.disable).not.toBe(true);
    expect(healthTestOf(s)).toContain('/readyz');
    expect(s.restart).toBe('unless-stopped');
    expect(dependsOn(s)).toMatchObject(AFTER_DEPLOY_STEPS);
    // Configured for containers: Kafka, database, listen address.
    expect(env.KAFKA_BROKERS).toMatch(/^[^:,]+:\d+(,[^:,]+:\d+)*$/);
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/.+@postgres:5432\/\w+/);
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('docker-compose.sandbox.env turns the sandbox on, with clearly fake dev secrets (an admin key of 16+ characters)', () => {
    const gateway = sandbox.services.gateway;
    expect(gateway.environment?.SANDBOX).toBe('true');
    // The secret files it names hold the same dev values as its variables (the `tools` service reads those).
    expect(sandboxEnv.COMPOSE_SECRETS_DIR).toBe('./deploy/sandbox-secrets');
    for (const variable of SECRETS)
      expect({ variable, file: read('deploy', 'sandbox-secrets', variable.toLowerCase()) }).toEqual({
        variable,
        file: sandboxEnv[variable],
      });
    const key = sandboxEnv.ADMIN_API_KEY ?? '';
    expect(DEV_DEFAULTS.has(key)).toBe(true);
    expect(key.length).toBeGreaterThanOrEqual(16);
    // The sandbox and the required secrets, each a documented dev default, and the local test chains and
    // counterparties (checked below): everything else as in production mode.
    const chainSettings = Object.keys(sandboxEnv).filter((name) =>
      /^(COMPOSE_FILE|HOT_WALLET_KEY(_2)?_SECRET_FILE|PROXY_TLS_(CERT|KEY)_FILE|CHAIN_|USDT_CONTRACT_|DICT_|OPERATOR_ISPB|SMTP_|TWILIO_)/.test(
        name,
      ),
    );
    expect(
      Object.keys(sandboxEnv)
        .filter((name) => !chainSettings.includes(name))
        .sort(),
    ).toEqual(['SANDBOX', 'COMPOSE_SECRETS_DIR', ...SECRETS].sort());
    expect(chainSettings).toEqual(expect.arrayContaining(Object.keys(EXAMPLE_CHAIN_ENV)));
    expect(SECRETS.filter((name) => !DEV_DEFAULTS.has(sandboxEnv[name]))).toEqual([]);
  });

  it('defines Kafka, PostgreSQL, the migration job, the six apps and the payout worker, and no app the catalogue does not name', () => {
    expect(Object.keys(config.services)).toEqual(expect.arrayContaining([...INFRA, ...APPS]));
    const fromAppsImage = Object.keys(config.services).filter((name) => /^partner-service:/.test(String(service(name).image)));
    expect(fromAppsImage.sort()).toEqual([...APP_SERVICES].sort());
  });

  it('runs the official Apache Kafka image in KRaft combined mode, without topic auto-creation', () => {
    expect(service('kafka')).toMatchObject({
      image: expect.stringMatching(/^apache\/kafka:/),
      environment: {
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://kafka:9092',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      },
    });
    expect(healthTestOf(service('kafka'))).toContain('--bootstrap-server');
  });

  it('gives PostgreSQL a pg_isready healthcheck and the migration job the tools image', () => {
    expect(service('postgres').image).toMatch(/^postgres:15/);
    expect(healthTestOf(service('postgres'))).toContain('pg_isready');
    const migrate = service('migrate');
    expect(commandOf(migrate)).toBe('node dist/deploy-steps/migrate.js');
    expect(migrate.image).toMatch(/^partner-service-tools:/);
    expect(dependsOn(migrate).postgres).toBe('service_healthy');
    expect(migrate.environment?.DATABASE_URL).toMatch(/^postgresql:\/\/.+@postgres:5432\//);
  });

  it.each(Object.entries(SERVICES))('%s: health server on HEALTH_PORT %s, which its healthcheck probes', (name, port) => {
    expect(service(name).environment?.HEALTH_PORT).toBe(port);
    expect(healthTestOf(service(name))).toMatch(new RegExp(`process\\.env\\.HEALTH_PORT|:${port}/healthz`));
  });

  it('gateway: publishes nothing itself (it scales), listens on 3000 and starts after the five services are healthy', () => {
    const gateway = service('gateway');
    expect(gateway.environment?.PORT).toBe(String(GATEWAY.port));
    expect(gateway.ports ?? []).toEqual([]);
    expect(healthTestOf(gateway)).toMatch(/process\.env\.ADMIN_PORT|:3100\/readyz/);
    expect(dependsOn(gateway)).toMatchObject(Object.fromEntries(Object.keys(SERVICES).map((name) => [name, 'service_healthy'])));
  });

  it('proxy: publishes GATEWAY_PORT (3000) and spreads requests over every gateway replica by name', () => {
    const proxy = service('proxy');
    const listen = /^\s*listen (\d+) ssl;/m.exec(nginxConfig)?.[1];
    expect(portOf(proxy.ports?.[0])).toEqual(`3000:${listen}`);
    expect(portOf(withEnv({ GATEWAY_PORT: '8443' }).services.proxy.ports?.[0])).toEqual(`8443:${listen}`);
    expect(proxy.volumes).toContainEqual(
      expect.stringMatching(/^\.\/deploy\/nginx\/gateway\.conf:\/etc\/nginx\/conf\.d\/default\.conf(:ro)?$/),
    );
    expect(dependsOn(proxy).gateway).toBe('service_healthy');
    // Re-resolved through Docker's DNS at request time (a variable in proxy_pass), so scaled replicas all get requests.
    expect(nginxConfig).toMatch(/^resolver 127\.0\.0\.11 /m);
    expect(nginxConfig).toMatch(/set \$gateway http:\/\/gateway:3000;\s+proxy_pass \$gateway;/);
    // Bigger than the gateway's body limit, so the gateway (with the API's error body) refuses oversized requests.
    const [, size, unit] = /client_max_body_size (\d+)([km]);/.exec(nginxConfig) ?? [];
    expect(Number(size) * (unit === 'm' ? 1024 * 1024 : 1024)).toBeGreaterThan(64 * 1024);
  });

  it('proxy: the public port speaks TLS only, from the Compose secrets, with HSTS on every answer; plain HTTP is redirected', () => {
    const publicServer = nginxConfig.slice(nginxConfig.indexOf('listen 8443 ssl;'), nginxConfig.indexOf('listen 8081;'));
    expect(publicServer).toMatch(/ssl_certificate \/run\/secrets\/proxy_tls_cert;/);
    expect(publicServer).toMatch(/ssl_certificate_key \/run\/secrets\/proxy_tls_key;/);
    expect(publicServer).toMatch(/ssl_protocols TLSv1\.2 TLSv1\.3;/);
    expect(publicServer).toMatch(/error_page 497 =308 https:\/\/\$http_host\$request_uri;/);
    // add_header is not inherited by a block that sets its own: HSTS in each of them too.
    const blocks = publicServer.split(/\n\s*location /);
    const setting = blocks.filter((block) => /add_header /.test(block));
    expect(setting.length).toBeGreaterThan(1);
    for (const block of setting)
      expect(block).toMatch(/add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;/);
    expect(config.secrets).toMatchObject({
      proxy_tls_cert: { file: PRODUCTION_ENV.PROXY_TLS_CERT_FILE },
      proxy_tls_key: { file: PRODUCTION_ENV.PROXY_TLS_KEY_FILE },
    });
  });

  it('networks: the proxy is on the edge network only, with the gateway; the broker, the database and the services are not', () => {
    const networksOf = (name: string) => {
      const n = service(name).networks;
      return n === undefined ? ['default'] : Array.isArray(n) ? n : Object.keys(n);
    };
    expect(Object.keys(config.networks ?? {})).toContain('edge');
    expect(networksOf('proxy')).toEqual(['edge']);
    expect(networksOf('gateway').sort()).toEqual(['default', 'edge']);
    const onEdge = Object.keys(config.services).filter((name) => networksOf(name).includes('edge'));
    expect(onEdge.sort()).toEqual(['gateway', 'proxy']);
  });

  it('hardens every app container: read-only root with /tmp, no capability, no new privileges, memory and pid limits; no core dump where the wallet key is', () => {
    for (const name of APP_SERVICES) {
      const s = service(name);
      expect({ name, read_only: s.read_only, tmpfs: s.tmpfs, cap_drop: s.cap_drop, security_opt: s.security_opt }).toEqual({
        name,
        read_only: true,
        tmpfs: ['/tmp'],
        cap_drop: ['ALL'],
        security_opt: ['no-new-privileges:true'],
      });
      expect(s.mem_limit).toBe('1g');
      expect(s.pids_limit).toBeGreaterThan(0);
    }
    for (const name of ['withdrawals', PAYOUT_WORKER]) expect(service(name).ulimits).toEqual({ core: 0 });
    expect(withEnv({ APP_MEM_LIMIT: '2g' }).services.gateway.mem_limit).toBe('2g');
  });

  it('holds no real-looking secret in any environment, only the documented dev defaults', () => {
    expect(Object.entries(sandbox.services).flatMap(([name, s]) => secretProblems(name, s.environment))).toEqual([]);
  });

  it('withdrawals: a pool of two hot wallets, each key a Compose secret (a file), never in an environment or in the file', () => {
    const withdrawals = service('withdrawals');
    // Mounted into the withdrawals service, which reads them from there (a comma list), and into no other service.
    expect(KEY_SECRETS).toEqual(['hot_wallet_key', 'hot_wallet_key_2']);
    expect(withdrawals.secrets).toEqual([...KEY_SECRETS, 'internal_secret', 'db_password_withdrawals']);
    expect(withdrawals.environment).toMatchObject({
      HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,/run/secrets/hot_wallet_key_2',
      HOT_WALLET_SIGNER: 'key-file',
    });
    // The keys only where they are read; the proxy mounts its TLS pair, nothing else.
    const mounted = (name: string) => (service(name).secrets ?? []).map((s) => (typeof s === 'string' ? s : s.source));
    expect(Object.keys(config.services).filter((name) => mounted(name).some((s) => KEY_SECRETS.includes(s)))).toEqual([
      'withdrawals',
      PAYOUT_WORKER,
    ]);
    expect(mounted('proxy')).toEqual(['proxy_tls_cert', 'proxy_tls_key']);
    // Each from a host file the operator names, no default (generated ones: npm run compose:up); not swarm's external secrets.
    expect(Object.keys(config.secrets ?? {}).filter((s) => s.startsWith('hot_wallet_key'))).toEqual(KEY_SECRETS);
    for (const { secret, variable } of HOT_WALLET_KEY_SECRETS) {
      expect(config.secrets?.[secret]).toEqual({ file: EXAMPLE_CHAIN_ENV[variable] });
      expect(rawCompose).toMatch(new RegExp(`^ {4}file: \\$\\{${variable}:\\?[^}]+\\}$`, 'm'));
    }
    // No variable of any service carries a key itself, in production mode or in the sandbox.
    for (const [mode, c] of Object.entries({ production: config, sandbox })) {
      const carrying = Object.entries(c.services).flatMap(([name, s]) => keyVariables(s.environment).map((v) => `${name}.${v}`));
      expect({ mode, carrying }).toEqual({ mode, carrying: [] });
    }
    expect(secretProblems('withdrawals', sandbox.services.withdrawals.environment)).toEqual([]);
    // Nor anywhere in the file: no 32-byte hex string at all.
    expect(rawCompose.match(HEX_KEY)).toBeNull();
  });

  it('payouts: the withdrawals app again, as a payout worker with the same settings and keys; the requests instance pays nothing', () => {
    const withdrawals = service('withdrawals');
    const worker = service(PAYOUT_WORKER);
    expect(commandOf(worker)).toBe(commandOf(withdrawals));
    expect(worker.secrets).toEqual(withdrawals.secrets);
    const roleOf = ({ HEALTH_PORT, PAYOUTS_ENABLED, PAYOUTS_ONLY, ...rest }: Record<string, unknown>) => ({
      role: { HEALTH_PORT, PAYOUTS_ENABLED, PAYOUTS_ONLY },
      rest,
    });
    const requests = roleOf(withdrawals.environment ?? {});
    const payouts = roleOf(worker.environment ?? {});
    // Everything else alike: its database role, the chains, the pool, the payouts' settings.
    expect(payouts.rest).toEqual(requests.rest);
    expect(requests.role).toEqual({ HEALTH_PORT: '3101', PAYOUTS_ENABLED: 'false', PAYOUTS_ONLY: 'false' });
    // Its own health port (none of the catalogue's); PAYOUTS_ENABLED passed through to it alone (false stops payouts).
    expect(payouts.role).toEqual({ HEALTH_PORT: '3106', PAYOUTS_ENABLED: undefined, PAYOUTS_ONLY: 'true' });
    expect(Object.values(SERVICES)).not.toContain('3106');
    expect(withEnv({ PAYOUTS_ENABLED: 'false' }).services[PAYOUT_WORKER].environment).toMatchObject({ PAYOUTS_ENABLED: 'false' });
    expect(withEnv({ PAYOUTS_ENABLED: 'true' }).services.withdrawals.environment).toMatchObject({ PAYOUTS_ENABLED: 'false' });
    expect(healthTestOf(worker)).toContain('process.env.HEALTH_PORT');
    expect(worker.restart).toBe('unless-stopped');
    expect(dependsOn(worker)).toMatchObject(AFTER_DEPLOY_STEPS);
  });

  it('withdrawals: pays through the nodes the operator names (no default), on the mainnets unless told otherwise', () => {
    expect(service('withdrawals').environment).toMatchObject({
      CHAIN_RPC_URL_ETH: EXAMPLE_CHAIN_ENV.CHAIN_RPC_URL_ETH,
      CHAIN_RPC_URL_MATIC: EXAMPLE_CHAIN_ENV.CHAIN_RPC_URL_MATIC,
      CHAIN_ID_ETH: '1',
      CHAIN_ID_MATIC: '137',
      // Tether's contracts on Ethereum and Polygon PoS.
      USDT_CONTRACT_ETH: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      USDT_CONTRACT_MATIC: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
    });
  });

  it("withdrawals: every setting of the service can be given; a default the file states is the service's own, none is empty", () => {
    // WithdrawalsConfig's settings and defaults, read from its source: `NAME: type = value;` or `NAME?: type;`.
    const source = read('apps', 'withdrawals', 'src', 'config', 'withdrawals.config.ts');
    const defaults = new Map(
      [...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??: [^=;]+(?: = ([^;]+))?;$/gm)].map(([, name, value]) => [
        name,
        value
          ?.trim()
          .replace(/^'(.*)'$/, '$1')
          .replace(/_/g, ''),
      ]),
    );
    expect([...defaults.keys()]).toEqual(expect.arrayContaining(['CHAIN_RPC_URL_ETH', 'HOT_WALLET_KEY_FILE', 'CHAIN_POLL_MS']));
    // As written, before Compose leaves out what is passed through and unset: all but the chaos run's fault
    // injection, which production refuses.
    const written = parse(rawCompose).services.withdrawals.environment ?? {};
    expect([...defaults.keys()].filter((name) => !(name in written) && name !== 'PAYOUT_CRASH_AFTER_SIGN_RATE')).toEqual([]);
    expect('PAYOUT_CRASH_AFTER_SIGN_RATE' in written).toBe(false);
    // The pool's settings, whether or not the source above declares them yet.
    for (const name of ['CHAIN_MAX_IN_FLIGHT_PER_WALLET', 'CHAIN_REVERTS_TO_STOP', 'HOT_WALLETS_RETIRED', 'REMOTE_SIGNER_ADDRESS'])
      expect({ name, written: written[name] }).toEqual({ name, written: null });
    // Passed through (`NAME:`, no value): set in the environment, it reaches the service; unset, it is left out
    // and the service's default applies.
    const tuned = {
      CHAIN_FINALITY_ETH: '12',
      REMOTE_SIGNER_URL_ETH: 'http://signer-eth:9000',
      CHAIN_MAX_IN_FLIGHT_PER_WALLET: '8',
      CHAIN_REVERTS_TO_STOP: '5',
      HOT_WALLETS_RETIRED: '0x00000000000000000000000000000000000000a1,0x00000000000000000000000000000000000000a2',
    };
    expect(withEnv(tuned).services.withdrawals.environment).toMatchObject(tuned);
    const env = service('withdrawals').environment ?? {};
    expect(Object.keys(env)).not.toContain('CHAIN_FINALITY_ETH');
    // A `${NAME:-default}` repeats the service's own.
    const stated = [...rawCompose.matchAll(/^\s+([A-Z][A-Z0-9_]+): \$\{\1:-([^}]*)\}$/gm)]
      .map(([, name, value]) => ({ name, value }))
      .filter(({ name }) => defaults.get(name) !== undefined && name !== 'HEALTH_PORT');
    // SANDBOX is stated for the gateway too, alike.
    expect([...new Set(stated.map((s) => s.name))].sort()).toEqual([
      'CHAIN_ID_ETH',
      'CHAIN_ID_MATIC',
      'HOT_WALLET_SIGNER',
      'SANDBOX',
      'USDT_CONTRACT_ETH',
      'USDT_CONTRACT_MATIC',
    ]);
    for (const { name, value } of stated) expect({ name, value }).toEqual({ name, value: defaults.get(name) });
    expect([...defaults.keys()].filter((name) => env[name] === '')).toEqual([]);
  });

  it('the secret check itself catches real-looking values', () => {
    expect(secretProblems('x', { ADMIN_API_KEY: 'adm_live_Zk3v9QpLr2Xw8TnB5mYc1HdE' })).not.toEqual([]);
    expect(secretProblems('x', { DATABASE_URL: 'postgresql://app:S3cr3t-Pa55@db:5432/partner' })).not.toEqual([]);
    expect(secretProblems('x', { SIGNER: `0x${'ab'.repeat(32)}` })).not.toEqual([]);
    // An address is public; a key is not, even where an address-long run of hex digits sits inside it.
    expect(secretProblems('x', { USDT_CONTRACT_ETH: '0xdAC17F958D2ee523a2206206994597C13D831ec7' })).toEqual([]);
    expect(secretProblems('x', { CONTRACT: `0x${'ab'.repeat(32)}` })).not.toEqual([]);
    expect(secretProblems('x', { HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key' })).toEqual([]);
    expect(secretProblems('x', { HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,/run/secrets/hot_wallet_key_2' })).toEqual([]);
    expect(secretProblems('x', { HOT_WALLET_KEY_FILE: '/etc/keys/hot' })).not.toEqual([]);
    expect(secretProblems('x', { HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,/etc/keys/hot' })).not.toEqual([]);
    expect(secretProblems('x', { HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,' })).not.toEqual([]);
    const named = { HOT_WALLET_KEY: 'x', PRIVATE_KEY: 'x', SIGNER_MNEMONIC: 'x', HOT_WALLET_KEY_FILE: 'x', HOT_WALLET_SIGNER: 'x' };
    expect(keyVariables(named)).toEqual(['HOT_WALLET_KEY', 'PRIVATE_KEY', 'SIGNER_MNEMONIC']);
    const devDefaults = {
      ADMIN_API_KEY: 'change-me-dev-admin-key',
      DATABASE_URL: 'postgresql://postgres:postgres-dev-password@postgres:5432/partner',
    };
    expect(secretProblems('x', devDefaults)).toEqual([]);
  });
});

describe('docker-compose.local-chains.yml (development and CI: local test chains)', () => {
  const config = loadWithLocalChains(sandboxEnv);
  const overlay = loadFile(rawLocalChains, sandboxEnv);
  const CHAINS = { ETH: 'chain-eth', MATIC: 'chain-matic' } as const;
  const chainPortsOf = (c: ComposeConfig): string[] => Object.values(CHAINS).map((name) => portOf(c.services[name].ports?.[0]));

  it('adds a node per network, the chain-setup step, the DICT test server and the notification sinks; the withdrawals service waits for the step', () => {
    expect(Object.keys(overlay.services).sort()).toEqual([
      'chain-eth',
      'chain-matic',
      'chain-setup',
      'customers',
      'dict-test',
      'notify-sinks',
      'payouts',
      'pix-keys',
      'withdrawals',
    ]);
    // For the withdrawals service a dependency, and NODE_ENV=development (production refuses the test chains'
    // http:// and the sandbox's public key); its other settings come from the environment, as in production.
    expect(Object.keys(overlay.services.withdrawals)).toEqual(['environment', 'depends_on']);
    expect(overlay.services.withdrawals.environment).toEqual({ NODE_ENV: 'development' });
    expect(dependsOn(config.services.withdrawals)).toMatchObject({
      ...AFTER_DEPLOY_STEPS,
      'chain-setup': 'service_completed_successfully',
    });
    // Its payout worker alike.
    expect(overlay.services[PAYOUT_WORKER]).toEqual(overlay.services.withdrawals);
    expect(dependsOn(config.services[PAYOUT_WORKER])).toEqual(dependsOn(config.services.withdrawals));
    const setup = config.services['chain-setup'];
    expect(commandOf(setup)).toBe('node dist/chain/chain-setup.js');
    expect(setup.restart).toBe('no');
    expect(dependsOn(setup)).toEqual({ 'chain-eth': 'service_healthy', 'chain-matic': 'service_healthy' });
  });

  it("runs Hardhat's node from the Dockerfile's chain stage, one image built by one service (two exports of one tag fail)", () => {
    expectOneBuilderPerTag(config);
    expect(config.services['chain-eth'].image).toMatch(/^partner-service-chain:/);
    expect(config.services['chain-eth'].build).toMatchObject({ target: 'chain' });
    expectRunsImageOf(config, 'chain-eth', ['chain-matic', 'chain-setup']);
    // Development dependencies exactly as the lockfile has them (the deps stage's npm ci), as a non-root user;
    // the node listens on every interface of its container, which publishes it on the host's loopback only.
    expect(stage('chain')).toMatch(/^chain\b|deps AS chain/);
    expect(stage('chain')).toMatch(/^USER node$/m);
    expect(stage('chain')).toMatch(/hardhat\/dist\/src\/cli\.js.*"node", "--hostname", "0\.0\.0\.0", "--port", "8545"/);
  });

  it.each(Object.entries(CHAINS))(
    '%s: its own chain id, a block a second, healthy once it answers, published on 127.0.0.1 only',
    (network, name) => {
      const node = config.services[name];
      expect(node.environment).toMatchObject({ CHAIN_ID: sandboxEnv[`CHAIN_ID_${network}`], BLOCK_TIME_MS: '1000' });
      expect(healthTestOf(node)).toContain('eth_chainId');
      expect(node.ports).toHaveLength(1);
      expect(portOf(node.ports?.[0])).toMatch(/^127\.0\.0\.1:\d+:8545$/);
      expect(node.restart).toBe('no');
    },
  );

  it("publishes the chains on distinct loopback ports, beside npm start's (8545, 8546); only the proxy publishes beyond the host", () => {
    expect(chainPortsOf(config)).toEqual(['127.0.0.1:8555:8545', '127.0.0.1:8556:8545']);
    const moved = loadWithLocalChains({ ...sandboxEnv, CHAIN_PORT_ETH: '18555', CHAIN_PORT_MATIC: '18556' });
    expect(chainPortsOf(moved)).toEqual(['127.0.0.1:18555:8545', '127.0.0.1:18556:8545']);
    const beyondLoopback = Object.entries(config.services).filter(([, s]) =>
      (s.ports ?? []).some((p) => !portOf(p).startsWith('127.0.0.1:')),
    );
    expect(beyondLoopback.map(([name]) => name)).toEqual(['proxy']);
  });

  it('the sandbox env file points the withdrawals service at these nodes: their names, chain ids and the deployed token', () => {
    const env = config.services.withdrawals.environment ?? {};
    for (const [network, name] of Object.entries(CHAINS)) {
      expect(env[`CHAIN_RPC_URL_${network}`]).toBe(`http://${name}:8545`);
      expect(config.services['chain-setup'].environment?.[`CHAIN_RPC_URL_${network}`]).toBe(env[`CHAIN_RPC_URL_${network}`]);
      expect(env[`CHAIN_ID_${network}`]).toBe(config.services[name].environment?.CHAIN_ID);
      // Hardhat's development account #0's first deployment on a new chain, where chain-setup puts the token.
      expect(env[`USDT_CONTRACT_${network}`]).toBe(LOCAL_TOKEN_ADDRESS);
      // A local node's `finalized` is its latest block: confirmations instead.
      expect(env[`CHAIN_FINALITY_${network}`]).toMatch(/^[1-9]\d*$/);
    }
    // The local chain ids, never a mainnet's (the service checks them against the nodes at start).
    expect([env.CHAIN_ID_ETH, env.CHAIN_ID_MATIC]).toEqual(['31337', '31338']);
    expect(sandboxEnv.COMPOSE_FILE?.split(':')).toEqual(['docker-compose.yml', 'docker-compose.local-chains.yml']);
  });

  it("the hot wallet keys stay secret files here too: chain-setup reads the pool's addresses from them; the sandbox keys are the clearly fake keys 1 and 2", () => {
    const setup = config.services['chain-setup'];
    expect(setup.secrets).toEqual(KEY_SECRETS);
    // The very pool the withdrawals service pays from: chain-setup funds each.
    expect(setup.environment?.HOT_WALLET_KEY_FILE).toBe(KEY_FILES_IN_CONTAINER);
    expect(config.services.withdrawals.environment?.HOT_WALLET_KEY_FILE).toBe(KEY_FILES_IN_CONTAINER);
    for (const [name, s] of Object.entries(overlay.services)) {
      const found = { name, carrying: keyVariables(s.environment), problems: secretProblems(name, s.environment) };
      expect(found).toEqual({ name, carrying: [], problems: [] });
    }
    expect(rawLocalChains.match(HEX_KEY)).toBeNull();
    const sandboxKey = (variable: string) => readFileSync(resolve(repoRoot, sandboxEnv[variable] ?? ''), 'utf8').trim();
    expect(HOT_WALLET_KEY_SECRETS.map(({ variable }) => sandboxKey(variable))).toEqual([`0x${'0'.repeat(63)}1`, `0x${'0'.repeat(63)}2`]);
  });
});
