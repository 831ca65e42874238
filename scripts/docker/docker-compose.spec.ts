/**
 * docker-compose.yml (alone and with docker-compose.local-chains.yml) as Compose reads it, with nothing
 * installed: js-yaml's merge tag resolves the anchors and `<<` keys (Compose's YAML 1.1), and ${VAR...} is
 * interpolated from only what a test sets or the sandbox env file, so every other setting is the file's
 * default. That Compose itself accepts the file: docker-compose.int.spec.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import {
  APP_NAMES,
  BUS_ADMIN,
  BUS_SASL_MECHANISM,
  busPasswordVariable,
  GATEWAY,
  pgSchemaOf,
  SERVICE_CATALOGUE,
  SERVICE_NAMES,
} from '@partner/contracts';
import { loadConfig } from '@partner/config';
import { CustomersConfig } from '../../apps/customers/src/config/customers.config';
import { GatewayConfig } from '../../apps/gateway/src/config/gateway.config';
import { InflowsConfig } from '../../apps/inflows/src/config/inflows.config';
import { WithdrawalsConfig } from '../../apps/withdrawals/src/config/withdrawals.config';
import { LOCAL_TOKEN_ADDRESS } from '../chain/local-chains';
import { ownNodeFlagsOf } from '../lib/services';
import {
  ComposeConfig,
  EXAMPLE_CHAIN_ENV,
  EXAMPLE_PRODUCTION_ENV as PRODUCTION_ENV,
  HOT_WALLET_KEY_SECRETS,
  OPERATOR_SECRET_VARIABLES,
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
const INFRA = ['kafka', 'postgres', 'migrate', 'kafka-setup', 'proxy'] as const;
/** The bus's principal of a service that runs an app: the app's name (the payout worker is the withdrawals app). */
const principalOf = (name: string): string => (name === PAYOUT_WORKER ? 'withdrawals' : name);
/** Every client of the broker: its deploy step, the CLI and the apps. */
const KAFKA_CLIENTS = ['kafka-setup', 'tools', ...APP_SERVICES] as const;
/** Where a Kafka client finds the broker's certificate, and a principal its password (a Compose secret). */
const KAFKA_CA_FILE = '/run/secrets/kafka_tls_cert';
const busPasswordSecret = (principal: string): string => `kafka_password_${pgSchemaOf(principal)}`;
/** A secret variable's Compose secret (and file of COMPOSE_SECRETS_DIR, as compose:up writes it): its name in lower case. */
const secretOf = (variable: string): string => variable.toLowerCase();

/** The operator's own secrets (never generated; compose:up writes each from its variable): Compose secret files too. */
const OPERATOR_SECRETS: readonly string[] = [...OPERATOR_SECRET_VARIABLES.required, ...OPERATOR_SECRET_VARIABLES.optional];
/** The withdrawals app's nodes and signers, read by both of its processes. */
const WITHDRAWALS_PROCESSES = ['withdrawals', PAYOUT_WORKER] as const;
/** Which app services read each (`<NAME>_FILE`), and the app's configuration that takes it. */
const OPERATOR_SECRET_READERS: Readonly<Record<string, readonly string[]>> = {
  CHAIN_RPC_URL_ETH: WITHDRAWALS_PROCESSES,
  CHAIN_RPC_URL_MATIC: WITHDRAWALS_PROCESSES,
  CHAIN_RPC_URL_2_ETH: WITHDRAWALS_PROCESSES,
  CHAIN_RPC_URL_2_MATIC: WITHDRAWALS_PROCESSES,
  REMOTE_SIGNER_URL: WITHDRAWALS_PROCESSES,
  REMOTE_SIGNER_URL_ETH: WITHDRAWALS_PROCESSES,
  REMOTE_SIGNER_URL_MATIC: WITHDRAWALS_PROCESSES,
  SMTP_URL: ['customers'],
  TWILIO_AUTH_TOKEN: ['customers'],
  PIX_PROVIDER_WEBHOOK_SECRET: [GATEWAY.name],
  PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: [GATEWAY.name],
  PIX_API_CLIENT_SECRET: ['inflows'],
};
/** The local stand-ins of docker-compose.local-chains.yml that read one too: the counterparty's side of a shared secret. */
const LOCAL_SECRET_READERS: Readonly<Record<string, readonly string[]>> = {
  PIX_API_CLIENT_SECRET: ['pix-api-test'],
};
const CONFIG_OF: Readonly<Record<string, new () => object>> = {
  withdrawals: WithdrawalsConfig,
  [PAYOUT_WORKER]: WithdrawalsConfig,
  customers: CustomersConfig,
  [GATEWAY.name]: GatewayConfig,
  inflows: InflowsConfig,
};
/** A valid value of each, unlike any other setting's, for the checks that follow it. */
const OPERATOR_SECRET_SAMPLES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    OPERATOR_SECRETS.filter((name) => /^(CHAIN_RPC|REMOTE_SIGNER)_URL/.test(name)).map((name) => [
      name,
      `https://${secretOf(name).replace(/_/g, '-')}.provider.example/v3/k3y-of-${secretOf(name)}`,
    ]),
  ),
  SMTP_URL: 'smtps://mailer:sample-smtp-password@smtp.example:465',
  TWILIO_AUTH_TOKEN: 'sample-twilio-auth-token-0123456789',
  PIX_PROVIDER_WEBHOOK_SECRET: 'sample-pix-webhook-secret-0123456789abcdef',
  PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: 'sample-pix-webhook-secret-previous-0123456789',
  PIX_API_CLIENT_SECRET: 'sample-pix-api-client-secret-0123456789',
};

/** The only secret-like values the files may hold: their documented, clearly fake dev defaults. */
const DEV_DEFAULTS = new Set([
  'change-me-dev-admin-key',
  // The local notification sinks' fake Twilio credentials (tools/notification-sinks DEV_SINKS).
  'AC00000000000000000000000000000000',
  'local-sms-sink-token',
  // The Pix API test server's client secret (docker-compose.sandbox.env, deploy/sandbox-secrets/).
  'local-pix-api-test-secret',
  'change-me-dev-internal-secret-of-32-characters',
  'postgres-dev-password',
  ...APP_NAMES.map((app) => `${app}-dev-password`),
  // The bus's principals' (KAFKA_PASSWORD_<PRINCIPAL>).
  ...[BUS_ADMIN, ...APP_NAMES].map((principal) => `${principal}-bus-dev-password`),
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
  'kafka-setup': 'service_completed_successfully',
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
const entrypointOf = (s: Service): string => joined((s as Service & { entrypoint?: string[] | string }).entrypoint);
/** The Compose secrets a service mounts, by name. */
const mountedBy = (s: Service): string[] => (s.secrets ?? []).map((secret) => (typeof secret === 'string' ? secret : secret.source));
/** The secret files a service is told to read, anywhere: its environment, its entrypoint, its command, its health check. */
const secretFilesReadBy = (s: Service): string[] => {
  const text = [...Object.values(s.environment ?? {}), entrypointOf(s), commandOf(s), healthTestOf(s)].join('\n');
  return [...new Set([...text.matchAll(/\/run\/secrets\/([a-z0-9_.-]+)/g)].map((m) => m[1]))];
};
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
/** Settings that would hold a secret; a key store's type and location (the broker's PEM one) name a kind and a file. */
const SECRET_NAME = /(KEY(?!STORE_(TYPE|LOCATION)$)|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE)/i;
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
    expectRunsImageOf(config, 'migrate', ['kafka-setup', 'tools']);
  });

  it("Dockerfile: the runtime stage holds the apps' and libraries' dist/ and production dependencies only (no tool), on a Node LTS newer than 20, as a non-root user", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)-/m);
    expect(stage('runtime')).toMatch(/^USER node$/m);
    expect(stage('runtime').match(/^COPY .*/gm)).toEqual([
      'COPY --from=prod-deps /app/node_modules ./node_modules',
      'COPY --from=build /app/dist/apps ./dist/apps',
      'COPY --from=build /app/dist/libs ./dist/libs',
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

  it.each([
    // The hot wallets' key files; the nodes are the operator's secrets, files of COMPOSE_SECRETS_DIR (below).
    ...Object.keys(EXAMPLE_CHAIN_ENV).filter((name) => !OPERATOR_SECRETS.includes(name)),
    'COMPOSE_SECRETS_DIR',
    'KAFKA_TLS_CERT_FILE',
    'KAFKA_TLS_KEY_FILE',
    // The customers service's counterparties' settings that are no secret.
    'SMTP_FROM',
    'TWILIO_ACCOUNT_SID',
    // inflows' Pix API (refunds of Pix inflows).
    'PIX_API_URL',
  ])('refuses to start without %s (no default), and runs outside the sandbox unless asked', (name) => {
    const { [name]: _left, ...others } = PRODUCTION_ENV;
    expect(() => loadCompose(others)).toThrow(new RegExp(`required variable ${name} `));
    expect(requiredEverywhere(name)).toBe(true);
    expect(service('gateway').environment?.SANDBOX).toBe('false');
  });

  it("keeps every secret of the deployment in a file of COMPOSE_SECRETS_DIR, a Compose secret its readers mount and read as <NAME>_FILE; no running service's environment holds one", () => {
    const mounted = (name: string) => mountedBy(service(name));
    // The generated ones and the operator's own alike.
    for (const variable of [...SECRETS, ...OPERATOR_SECRETS]) {
      const secret = secretOf(variable);
      expect({ variable, secret: config.secrets?.[secret] }).toEqual({
        variable,
        secret: { file: `${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/${secret}` },
      });
    }
    // Each file a service is told to read (a variable, the broker's start script, a health check) is one it mounts.
    for (const name of Object.keys(config.services))
      expect({ name, unmounted: secretFilesReadBy(service(name)).filter((secret) => !mounted(name).includes(secret)) }).toEqual({
        name,
        unmounted: [],
      });
    const holdingIn = (name: string) =>
      [...Object.entries(service(name).environment ?? {}), ['entrypoint', entrypointOf(service(name))]].flatMap(([key, value]) =>
        SECRETS.filter((s) => value.includes(PRODUCTION_ENV[s])).map((s) => `${key}: ${s}`),
      );
    // No secret's value anywhere in any service: not as a variable, not inside a URL, not in a start script;
    // the CLI run by hand (tools) included, which reads the operator key and the owner's password as files.
    for (const name of Object.keys(config.services)) expect({ name, holding: holdingIn(name) }).toEqual({ name, holding: [] });
    expect(service('tools').environment).toMatchObject({
      ADMIN_API_KEY_FILE: '/run/secrets/admin_api_key',
      DATABASE_PASSWORD_FILE: '/run/secrets/postgres_password',
    });
    // Who reads what: the apps INTERNAL_SECRET, their own role's password and their own principal's on the bus;
    // the gateway the operator key; migrate the owner's password and every role's; PostgreSQL the owner's.
    for (const app of APP_SERVICES)
      expect(mounted(app)).toEqual(
        expect.arrayContaining([
          'internal_secret',
          `db_password_${pgSchemaOf(principalOf(app))}`,
          busPasswordSecret(principalOf(app)),
          'kafka_tls_cert',
        ]),
      );
    expect(mounted('gateway')).toContain('admin_api_key');
    expect(mounted('migrate').sort()).toEqual(['postgres_password', ...APPS.map((app) => `db_password_${pgSchemaOf(app)}`)].sort());
    expect(mounted('postgres')).toEqual(['postgres_password']);
    expect(service('postgres').environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
  });

  it("keeps the operator's own secrets (the node and signer URLs, SMTP_URL, TWILIO_AUTH_TOKEN, the Pix provider's) in files of COMPOSE_SECRETS_DIR too: Compose takes none of them as a variable", () => {
    // compose:up stops without a required one (the nodes, the notifiers'); an optional one not set is an empty file.
    expect(OPERATOR_SECRET_VARIABLES.required).toEqual(['CHAIN_RPC_URL_ETH', 'CHAIN_RPC_URL_MATIC', 'SMTP_URL', 'TWILIO_AUTH_TOKEN']);
    expect(Object.keys(OPERATOR_SECRET_READERS).sort()).toEqual([...OPERATOR_SECRETS].sort());
    expect(OPERATOR_SECRETS.filter((name) => SECRETS.includes(name))).toEqual([]);
    for (const name of OPERATOR_SECRETS) {
      const secret = secretOf(name);
      // The Compose secret, from its file in COMPOSE_SECRETS_DIR (required: no folder, no start), in production and in the sandbox.
      expect({ name, definition: rawCompose.match(new RegExp(`^ {2}${secret}:\\n {4}file: (.*)$`, 'm'))?.[1] }).toEqual({
        name,
        definition: expect.stringMatching(new RegExp(`^\\$\\{COMPOSE_SECRETS_DIR:\\?[^}]+\\}/${secret}$`)),
      });
      expect({ name, file: sandbox.secrets?.[secret]?.file }).toEqual({ name, file: `${sandboxEnv.COMPOSE_SECRETS_DIR}/${secret}` });
      // Never interpolated: not required, not defaulted, not passed through.
      expect({ name, interpolated: rawCompose.match(new RegExp(`\\$\\{${name}(?![A-Z0-9_])[^}]*\\}`, 'g')) }).toEqual({
        name,
        interpolated: null,
      });
      expect({ name, passedThrough: new RegExp(`^\\s+${name}:`, 'm').test(rawCompose) }).toEqual({ name, passedThrough: false });
    }
    // So Compose starts without any of them (compose:up has written their files by then).
    const withoutThem = Object.fromEntries(Object.entries(PRODUCTION_ENV).filter(([name]) => !OPERATOR_SECRETS.includes(name)));
    expect(() => loadCompose(withoutThem)).not.toThrow();
    expect(() => loadCompose({ ...withoutThem, COMPOSE_SECRETS_DIR: '' })).toThrow(/required variable COMPOSE_SECRETS_DIR /);
  });

  it("no app service has an operator's secret in its environment, whatever the host sets: only <NAME>_FILE at /run/secrets/<name>, in the services that read it, which alone mount it", () => {
    const hostSet = withEnv(OPERATOR_SECRET_SAMPLES);
    const modes = { production: config, sandbox, hostSet, localChains: loadWithLocalChains(sandboxEnv) };
    for (const [mode, c] of Object.entries(modes)) {
      for (const app of APP_SERVICES) {
        const env = c.services[app].environment ?? {};
        const settings = Object.entries(env).filter(([key]) => OPERATOR_SECRETS.includes(key.replace(/_FILE$/, '')));
        expect({ mode, app, settings: Object.fromEntries(settings) }).toEqual({
          mode,
          app,
          settings: Object.fromEntries(
            OPERATOR_SECRETS.filter((name) => OPERATOR_SECRET_READERS[name].includes(app)).map((name) => [
              `${name}_FILE`,
              `/run/secrets/${secretOf(name)}`,
            ]),
          ),
        });
      }
      // Mounted by its readers and no other service (not a deploy step, not the CLI, not a local stand-in but
      // the counterparty that shares it).
      for (const name of OPERATOR_SECRETS) {
        const mounting = Object.keys(c.services).filter((s) => mountedBy(c.services[s]).includes(secretOf(name)));
        const readers = [...OPERATOR_SECRET_READERS[name], ...(mode === 'localChains' ? (LOCAL_SECRET_READERS[name] ?? []) : [])];
        expect({ mode, name, mounting: mounting.sort() }).toEqual({ mode, name, mounting: readers.sort() });
      }
    }
    // The values the host sets reach no service: not as a variable, not inside another, not in a start script.
    const leaks = Object.entries(hostSet.services).flatMap(([name, s]) =>
      [...Object.entries(s.environment ?? {}), ['entrypoint', entrypointOf(s)], ['command', commandOf(s)]].flatMap(([key, value]) =>
        OPERATOR_SECRETS.filter((secret) => value.includes(OPERATOR_SECRET_SAMPLES[secret])).map((secret) => `${name}.${key}: ${secret}`),
      ),
    );
    expect(leaks).toEqual([]);
  });

  it('the apps take each operator secret from the file Compose mounts (<NAME>_FILE, as loadConfig reads it), an empty file as the setting unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'operator-secrets-'));
    try {
      const base = {
        NODE_ENV: 'development',
        DATABASE_URL: 'postgresql://x@127.0.0.1/x',
        KAFKA_BROKERS: '127.0.0.1:1',
        HOT_WALLET_KEY_FILE: '/k',
      };
      const problems: string[] = [];
      for (const [name, readers] of Object.entries(OPERATOR_SECRET_READERS))
        for (const Config of new Set(readers.map((reader) => CONFIG_OF[reader]))) {
          const file = join(dir, secretOf(name));
          const taken = (content: string): unknown => {
            writeFileSync(file, content);
            return (loadConfig(Config, { ...base, [`${name}_FILE`]: file }) as Record<string, unknown>)[name];
          };
          const unset = (loadConfig(Config, base) as Record<string, unknown>)[name];
          const value = OPERATOR_SECRET_SAMPLES[name];
          if (taken(value) !== value) problems.push(`${Config.name} does not take ${name} from ${name}_FILE`);
          if (taken('') !== unset) problems.push(`${Config.name} does not read an empty ${name}_FILE as ${name} unset`);
        }
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it("sets the bus up in a deploy step, as the broker's super user: the topics with a configurable layout (the apps only check them), each app's principal and ACLs", () => {
    const setup = service('kafka-setup');
    expect(Object.keys(config.services)).not.toContain('topics');
    // npm run kafka:setup, bundled into the tools image (build:deploy-steps: one file per entry, by its name).
    expect(commandOf(setup)).toBe('node dist/deploy-steps/setup.js');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['kafka:setup']).toBe('tsx scripts/kafka/setup.ts');
    expect(scripts['build:deploy-steps']).toMatch(
      /^esbuild (\S+\.ts )*scripts\/kafka\/setup\.ts .*--outdir=dist\/deploy-steps --entry-names=\[name\]/,
    );
    expect(dependsOn(setup)).toEqual({ kafka: 'service_healthy', migrate: 'service_completed_successfully' });
    expect(setup.restart).toBe('no');
    expect(setup.environment).toMatchObject({ KAFKA_PARTITIONS: '6', KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '1' });
    const layout = { KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' };
    expect(withEnv(layout).services['kafka-setup'].environment).toMatchObject(layout);
    expect(APP_SERVICES.filter((app) => service(app).environment?.KAFKA_CREATE_TOPICS !== 'false')).toEqual([]);
    // As `admin`, the super user, with its password file; every app's password from its file (KAFKA_PASSWORD_<APP>_FILE),
    // which it sets on the app's principal: the very file the app reads its own from.
    const env = setup.environment ?? {};
    expect(BUS_ADMIN).toBe('admin');
    expect(env).toMatchObject({ KAFKA_SASL_USERNAME: BUS_ADMIN, KAFKA_SASL_PASSWORD_FILE: `/run/secrets/${busPasswordSecret(BUS_ADMIN)}` });
    expect(Object.keys(env).filter((name) => name.startsWith('KAFKA_PASSWORD_'))).toEqual(
      APPS.map((app) => `${busPasswordVariable(app)}_FILE`),
    );
    for (const app of APP_SERVICES)
      expect({ app, file: env[`${busPasswordVariable(principalOf(app))}_FILE`] }).toEqual({
        app,
        file: service(app).environment?.KAFKA_SASL_PASSWORD_FILE,
      });
    expect(
      mountedBy(setup)
        .filter((secret) => secret.startsWith('kafka_'))
        .sort(),
    ).toEqual([busPasswordSecret(BUS_ADMIN), ...APPS.map(busPasswordSecret), 'kafka_tls_cert'].sort());
  });

  it("passes the bus's connection settings to every Kafka client alike (kafka-setup, tools, the apps): TLS trusting the broker's certificate and SCRAM-SHA-512 unless told otherwise", () => {
    const defaults = {
      KAFKA_BROKERS: 'kafka:9092',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: KAFKA_CA_FILE,
      KAFKA_SASL_MECHANISM: BUS_SASL_MECHANISM,
      KAFKA_CLIENT: 'kafkajs',
    };
    expect(BUS_SASL_MECHANISM).toBe('scram-sha-512');
    for (const name of KAFKA_CLIENTS) expect({ name, ...service(name).environment }).toMatchObject({ name, ...defaults });
    // A managed cluster: its listeners, its mechanism, its CA (empty: the system's CAs), to every client alike.
    const managed = {
      KAFKA_BROKERS: 'b-1.kafka.example:9096,b-2.kafka.example:9096',
      KAFKA_SSL_CA_FILE: '',
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
    };
    const c = withEnv(managed);
    for (const name of KAFKA_CLIENTS)
      expect({ name, ...c.services[name].environment }).toMatchObject({ name, ...managed, KAFKA_SSL: 'true' });
  });

  it('each Kafka client authenticates as its own principal with its own password file, never one from the environment; no Kafka password in any environment', () => {
    for (const name of APP_SERVICES) {
      const principal = principalOf(name);
      const env = service(name).environment ?? {};
      // Only its own principal's password mounted (and the broker's certificate): no app can log in as another.
      expect({
        name,
        user: env.KAFKA_SASL_USERNAME,
        file: env.KAFKA_SASL_PASSWORD_FILE,
        bus: mountedBy(service(name))
          .filter((secret) => secret.startsWith('kafka_'))
          .sort(),
      }).toEqual({
        name,
        user: principal,
        file: `/run/secrets/${busPasswordSecret(principal)}`,
        bus: [busPasswordSecret(principal), 'kafka_tls_cert'],
      });
    }
    // One principal per app: the two withdrawals processes share theirs.
    expect(APPS.map((app) => service(app).environment?.KAFKA_SASL_USERNAME)).toEqual([...APPS]);
    expect(service(PAYOUT_WORKER).environment?.KAFKA_SASL_USERNAME).toBe('withdrawals');
    for (const name of ['kafka-setup', 'tools'])
      expect({ name, ...service(name).environment }).toMatchObject({
        name,
        KAFKA_SASL_USERNAME: BUS_ADMIN,
        KAFKA_SASL_PASSWORD_FILE: `/run/secrets/${busPasswordSecret(BUS_ADMIN)}`,
      });
    expect(mountedBy(service('tools'))).toEqual(['admin_api_key', 'postgres_password', busPasswordSecret(BUS_ADMIN), 'kafka_tls_cert']);
    // Who mounts what of the bus: the super user's password the broker, its deploy step and the CLI; each app's
    // its service (both withdrawals processes) and the deploy step; the broker's key the broker alone; the
    // certificate every client and the broker.
    const mounting = (secret: string) => Object.keys(config.services).filter((name) => mountedBy(service(name)).includes(secret));
    expect(mounting(busPasswordSecret(BUS_ADMIN)).sort()).toEqual(['kafka', 'kafka-setup', 'tools']);
    for (const app of APPS)
      expect({ app, mounting: mounting(busPasswordSecret(app)).sort() }).toEqual({
        app,
        mounting: [...APP_SERVICES.filter((name) => principalOf(name) === app), 'kafka-setup'].sort(),
      });
    expect(mounting('kafka_tls_key')).toEqual(['kafka']);
    expect(mounting('kafka_tls_cert').sort()).toEqual(['kafka', ...KAFKA_CLIENTS].sort());
    // Each a file of COMPOSE_SECRETS_DIR (the passwords) or one the operator names, no default (the TLS pair).
    expect(config.secrets).toMatchObject({
      ...Object.fromEntries(
        [BUS_ADMIN, ...APPS].map((p) => [busPasswordSecret(p), { file: `${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/${busPasswordSecret(p)}` }]),
      ),
      kafka_tls_cert: { file: PRODUCTION_ENV.KAFKA_TLS_CERT_FILE },
      kafka_tls_key: { file: PRODUCTION_ENV.KAFKA_TLS_KEY_FILE },
    });
    // No password in an environment: not the shared settings' KAFKA_SASL_PASSWORD, not a principal's
    // KAFKA_PASSWORD_<PRINCIPAL>, whatever the host sets; only files, each one of the bus's secrets.
    const hostSet = withEnv({
      KAFKA_SASL_USERNAME: 'svc',
      KAFKA_SASL_PASSWORD: 'pw',
      ...Object.fromEntries(SECRETS.filter((name) => name.startsWith('KAFKA_PASSWORD_')).map((name) => [name, PRODUCTION_ENV[name]])),
    });
    const modes = { production: config, sandbox, hostSet, localChains: loadWithLocalChains(sandboxEnv) };
    for (const [mode, c] of Object.entries(modes)) {
      const settings = Object.entries(c.services).flatMap(([name, s]) =>
        Object.entries(s.environment ?? {}).flatMap(([key, value]) => (/^KAFKA_.*PASSWORD/.test(key) ? [{ name, key, value }] : [])),
      );
      const problems = settings.filter(
        ({ key, value }) => !key.endsWith('_FILE') || !/^\/run\/secrets\/kafka_password_[a-z_]+$/.test(value),
      );
      expect({ mode, problems }).toEqual({ mode, problems: [] });
      // The principals the host names reach no service: each has its own.
      const users = Object.fromEntries(
        Object.entries(c.services).flatMap(([name, s]) =>
          s.environment?.KAFKA_SASL_USERNAME ? [[name, s.environment.KAFKA_SASL_USERNAME]] : [],
        ),
      );
      expect({ mode, users }).toEqual({
        mode,
        users: Object.fromEntries([
          ...APP_SERVICES.map((name) => [name, principalOf(name)]),
          ['kafka-setup', BUS_ADMIN],
          ['tools', BUS_ADMIN],
        ]),
      });
    }
    expect(rawCompose).not.toMatch(/\$\{KAFKA_(SASL_)?PASSWORD/);
    expect(rawCompose).not.toMatch(/^\s+KAFKA_SASL_PASSWORD:/m);
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
    // Its own principal on the bus, named as the app, whose password kafka-setup sets from the same secret file.
    expect(env.KAFKA_SASL_USERNAME).toBe(app);
    expect(env.KAFKA_SASL_PASSWORD_FILE).toBe(`/run/secrets/kafka_password_${schema}`);
    expect(service('kafka-setup').environment?.[`${busPasswordVariable(app)}_FILE`]).toBe(env.KAFKA_SASL_PASSWORD_FILE);
    expect(env.KAFKA_SASL_USERNAME).not.toBe(service('kafka-setup').environment?.KAFKA_SASL_USERNAME);
    // Its own node flags on the command line (a later V8 flag wins over NODE_OPTIONS'), as `npm start` runs it.
    expect(s.image).toMatch(/^partner-service:/);
    expect(commandOf(s)).toBe(['node', ...ownNodeFlagsOf(app), `dist/apps/${app}/src/main.js`].join(' '));
    expect(s.healthcheck?.disable).not.toBe(true);
    expect(healthTestOf(s)).toContain('/readyz');
    expect(s.restart).toBe('unless-stopped');
    expect(dependsOn(s)).toMatchObject(AFTER_DEPLOY_STEPS);
    // Configured for containers: Kafka, database, listen address.
    expect(env.KAFKA_BROKERS).toMatch(/^[^:,]+:\d+(,[^:,]+:\d+)*$/);
    expect(env).toMatchObject({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: KAFKA_CA_FILE, KAFKA_SASL_MECHANISM: BUS_SASL_MECHANISM });
    expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/.+@postgres:5432\/\w+/);
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('docker-compose.sandbox.env turns the sandbox on, with clearly fake dev secrets (an admin key of 16+ characters)', () => {
    const gateway = sandbox.services.gateway;
    expect(gateway.environment?.SANDBOX).toBe('true');
    // The secret files it names hold the same dev values as its variables (the `tools` service reads those).
    expect(sandboxEnv.COMPOSE_SECRETS_DIR).toBe('./deploy/sandbox-secrets');
    for (const variable of SECRETS)
      expect({ variable, file: read('deploy', 'sandbox-secrets', secretOf(variable)) }).toEqual({
        variable,
        file: sandboxEnv[variable],
      });
    // The operator's own alike: its value (the local stand-ins'), or an empty file for an optional one it does not set.
    expect(OPERATOR_SECRET_VARIABLES.required.filter((variable) => !sandboxEnv[variable])).toEqual([]);
    for (const variable of OPERATOR_SECRETS)
      expect({ variable, file: read('deploy', 'sandbox-secrets', secretOf(variable)) }).toEqual({
        variable,
        file: sandboxEnv[variable] ?? '',
      });
    // Those files and no other.
    expect(readdirSync(join(repoRoot, 'deploy', 'sandbox-secrets')).sort()).toEqual([...SECRETS, ...OPERATOR_SECRETS].map(secretOf).sort());
    // The notifiers' the local sinks', with their clearly fake token.
    expect(new URL(sandboxEnv.SMTP_URL ?? '').host).toBe('notify-sinks:1025');
    expect(DEV_DEFAULTS.has(sandboxEnv.TWILIO_AUTH_TOKEN ?? '')).toBe(true);
    const key = sandboxEnv.ADMIN_API_KEY ?? '';
    expect(DEV_DEFAULTS.has(key)).toBe(true);
    expect(key.length).toBeGreaterThanOrEqual(16);
    // The sandbox and the required secrets, each a documented dev default, and the local test chains and
    // counterparties (checked below): everything else as in production mode.
    const chainSettings = Object.keys(sandboxEnv).filter((name) =>
      /^(COMPOSE_FILE|HOT_WALLET_KEY(_2)?_SECRET_FILE|(PROXY|KAFKA)_TLS_(CERT|KEY)_FILE|CHAIN_|USDT_CONTRACT_|DICT_|OPERATOR_ISPB|PIX_API_|SMTP_|TWILIO_)/.test(
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
    // The bus's principals' passwords as kafka-setup takes them (16+ letters, digits, '_' or '-'); the broker's
    // TLS pair the one compose:up generates.
    expect(SECRETS.filter((name) => name.startsWith('KAFKA_PASSWORD_'))).toEqual([BUS_ADMIN, ...APP_NAMES].map(busPasswordVariable));
    expect(SECRETS.filter((name) => name.startsWith('KAFKA_PASSWORD_') && !/^[A-Za-z0-9_-]{16,}$/.test(sandboxEnv[name]))).toEqual([]);
    expect([sandboxEnv.KAFKA_TLS_CERT_FILE, sandboxEnv.KAFKA_TLS_KEY_FILE]).toEqual(['./.env.kafka-tls.pem', './.env.kafka-tls.key']);
  });

  it("defines Kafka, PostgreSQL, the migration job, the bus's setup step, the six apps and the payout worker, and no app the catalogue does not name", () => {
    expect(Object.keys(config.services)).toEqual(expect.arrayContaining([...INFRA, ...APPS]));
    const fromAppsImage = Object.keys(config.services).filter((name) => /^partner-service:/.test(String(service(name).image)));
    expect(fromAppsImage.sort()).toEqual([...APP_SERVICES].sort());
  });

  it('runs the official Apache Kafka image in KRaft combined mode, without topic auto-creation', () => {
    expect(service('kafka')).toMatchObject({
      image: expect.stringMatching(/^apache\/kafka:/),
      environment: {
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      },
    });
    expect(healthTestOf(service('kafka'))).toContain('--bootstrap-server');
  });

  it('kafka: clients reach the broker over TLS with SASL/SCRAM-SHA-512 only, every request checked against the ACLs; `admin` the one super user a client can be', () => {
    const kafka = service('kafka');
    const env = kafka.environment ?? {};
    expect(env).toMatchObject({
      KAFKA_LISTENERS: 'BROKER://:9092,CONTROLLER://localhost:9093',
      // Named BROKER, not after its protocol: the image's start demands JKS key stores when an advertised listener reads `SSL://`.
      KAFKA_ADVERTISED_LISTENERS: 'BROKER://kafka:9092',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,BROKER:SASL_SSL',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_SASL_ENABLED_MECHANISMS: BUS_SASL_MECHANISM.toUpperCase(),
      KAFKA_SASL_MECHANISM_INTER_BROKER_PROTOCOL: BUS_SASL_MECHANISM.toUpperCase(),
      KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
      // Its certificate the secret every client trusts; its key store the key and certificate its start puts together.
      KAFKA_SSL_KEYSTORE_TYPE: 'PEM',
      KAFKA_SSL_KEYSTORE_LOCATION: '/tmp/kafka-keystore.pem',
      KAFKA_SSL_TRUSTSTORE_TYPE: 'PEM',
      KAFKA_SSL_TRUSTSTORE_LOCATION: KAFKA_CA_FILE,
    });
    // Every listener SASL_SSL but the controller's, which only this container reaches (its loopback): the
    // principal there, ANONYMOUS, is the only super user besides `admin`.
    const protocols = Object.fromEntries(
      String(env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)
        .split(',')
        .map((p) => p.split(':')),
    );
    const listeners = Object.fromEntries(
      String(env.KAFKA_LISTENERS)
        .split(',')
        .map((l) => l.split('://')),
    );
    for (const [name, address] of Object.entries(listeners))
      expect({ name, address, protocol: protocols[name] }).toEqual(
        name === 'CONTROLLER'
          ? { name, address: expect.stringMatching(/^localhost:/), protocol: 'PLAINTEXT' }
          : { name, address, protocol: 'SASL_SSL' },
      );
    expect(
      String(env.KAFKA_ADVERTISED_LISTENERS)
        .split(',')
        .map((l) => protocols[l.split('://')[0]]),
    ).toEqual(['SASL_SSL']);
    expect(String(env.KAFKA_SUPER_USERS).split(';')).toEqual(['User:ANONYMOUS', `User:${BUS_ADMIN}`]);
    // Its start: the key store and the health check's client settings written readable by it alone, `admin`
    // added (SCRAM) when the volume is first formatted, its password read from the secret; then the image's own start.
    const start = entrypointOf(kafka);
    expect(start).toMatch(/^\/bin\/sh -c /);
    expect(start).toContain('password="$(cat /run/secrets/kafka_password_admin)"');
    expect(start.indexOf('umask 077')).toBeGreaterThan(-1);
    expect(start.indexOf('umask 077')).toBeLessThan(start.indexOf('/tmp/kafka-keystore.pem'));
    expect(start).toContain('{ cat /run/secrets/kafka_tls_key; echo; cat /run/secrets/kafka_tls_cert; } > /tmp/kafka-keystore.pem');
    expect(start).toMatch(
      /if \[ ! -f \/var\/lib\/kafka\/data\/meta\.properties \]; then[^]*kafka-storage\.sh format --cluster-id "\$CLUSTER_ID"/,
    );
    expect(start).toContain(`--add-scram "SCRAM-SHA-512=[name=${BUS_ADMIN},password=$password]"`);
    expect(start.trim()).toMatch(/\nexec \/etc\/kafka\/docker\/run$/);
    // The health check logs in as `admin` over the SASL_SSL listener.
    expect(healthTestOf(kafka)).toContain('--bootstrap-server kafka:9092 --command-config /tmp/admin-client.properties');
    expect(start).toMatch(
      /security\.protocol=SASL_SSL sasl\.mechanism=SCRAM-SHA-512[^]*username=\\"admin\\" password=\\"\$password\\";[^]*> \/tmp\/admin-client\.properties/,
    );
    expect(mountedBy(kafka).sort()).toEqual([busPasswordSecret(BUS_ADMIN), 'kafka_tls_cert', 'kafka_tls_key']);
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
    expect(withdrawals.secrets).toEqual([
      ...KEY_SECRETS,
      'internal_secret',
      'db_password_withdrawals',
      'kafka_password_withdrawals',
      'kafka_tls_cert',
      // Its nodes and signers (the operator's secrets).
      ...OPERATOR_SECRETS.filter((name) => OPERATOR_SECRET_READERS[name].includes('withdrawals')).map(secretOf),
    ]);
    expect(withdrawals.environment).toMatchObject({
      HOT_WALLET_KEY_FILE: '/run/secrets/hot_wallet_key,/run/secrets/hot_wallet_key_2',
      HOT_WALLET_SIGNER: 'key-file',
    });
    // The keys only where they are read; the proxy mounts its TLS pair, nothing else.
    const mounted = (name: string) => mountedBy(service(name));
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

  it('withdrawals: pays through the nodes the operator names (secret files, no default node), on the mainnets unless told otherwise', () => {
    for (const name of WITHDRAWALS_PROCESSES) {
      const env = service(name).environment ?? {};
      expect({ name, ...env }).toMatchObject({
        name,
        CHAIN_RPC_URL_ETH_FILE: '/run/secrets/chain_rpc_url_eth',
        CHAIN_RPC_URL_MATIC_FILE: '/run/secrets/chain_rpc_url_matic',
        CHAIN_ID_ETH: '1',
        CHAIN_ID_MATIC: '137',
        // Tether's contracts on Ethereum and Polygon PoS.
        USDT_CONTRACT_ETH: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
        USDT_CONTRACT_MATIC: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      });
      expect({ name, nodes: [env.CHAIN_RPC_URL_ETH, env.CHAIN_RPC_URL_MATIC] }).toEqual({ name, nodes: [undefined, undefined] });
    }
    // Written by compose:up from CHAIN_RPC_URL_ETH and CHAIN_RPC_URL_MATIC, which it requires (no default node).
    expect(OPERATOR_SECRET_VARIABLES.required).toEqual(expect.arrayContaining(['CHAIN_RPC_URL_ETH', 'CHAIN_RPC_URL_MATIC']));
    expect(config.secrets).toMatchObject({
      chain_rpc_url_eth: { file: `${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/chain_rpc_url_eth` },
      chain_rpc_url_matic: { file: `${PRODUCTION_ENV.COMPOSE_SECRETS_DIR}/chain_rpc_url_matic` },
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
    // The operator's secrets among them as files (<NAME>_FILE), never themselves.
    const givenAs = (name: string) => (OPERATOR_SECRETS.includes(name) ? `${name}_FILE` : name);
    expect([...defaults.keys()].filter((name) => !(givenAs(name) in written) && name !== 'PAYOUT_CRASH_AFTER_SIGN_RATE')).toEqual([]);
    expect(OPERATOR_SECRETS.filter((name) => OPERATOR_SECRET_READERS[name].includes('withdrawals') && !defaults.has(name))).toEqual([]);
    expect(OPERATOR_SECRETS.filter((name) => name in written)).toEqual([]);
    expect('PAYOUT_CRASH_AFTER_SIGN_RATE' in written).toBe(false);
    // The pool's settings, whether or not the source above declares them yet.
    for (const name of ['CHAIN_MAX_IN_FLIGHT_PER_WALLET', 'CHAIN_REVERTS_TO_STOP', 'HOT_WALLETS_RETIRED', 'REMOTE_SIGNER_ADDRESS'])
      expect({ name, written: written[name] }).toEqual({ name, written: null });
    // Passed through (`NAME:`, no value): set in the environment, it reaches the service; unset, it is left out
    // and the service's default applies.
    const tuned = {
      CHAIN_FINALITY_ETH: '12',
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
    // A key store's type and location name no secret; its key and password do.
    expect(secretProblems('x', { KAFKA_SSL_KEYSTORE_TYPE: 'PEM', KAFKA_SSL_KEYSTORE_LOCATION: '/tmp/kafka-keystore.pem' })).toEqual([]);
    expect(secretProblems('x', { KAFKA_SSL_KEYSTORE_KEY: 'x' })).not.toEqual([]);
    expect(secretProblems('x', { KAFKA_SSL_KEYSTORE_PASSWORD: 'x' })).not.toEqual([]);
    expect(secretProblems('x', { KAFKA_SASL_PASSWORD: 'pw' })).not.toEqual([]);
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

  it('adds a node per network, the chain-setup step, the DICT and Pix API test servers and the notification sinks; the withdrawals service waits for the step', () => {
    expect(Object.keys(overlay.services).sort()).toEqual([
      'chain-eth',
      'chain-matic',
      'chain-setup',
      'customers',
      'dict-test',
      'inflows',
      'notify-sinks',
      'payouts',
      'pix-api-test',
      'pix-keys',
      'withdrawals',
    ]);
    // pix-keys and inflows run in production mode, told their counterparties are test servers: the test DICT's
    // placeholder ISPB (99999999) is allowed there, and refused in any other production start.
    expect(overlay.services['pix-keys'].environment).toEqual({ LOCAL_COUNTERPARTIES: 'true' });
    // inflows also pointed at the Pix API test server (below).
    expect(overlay.services.inflows.environment).toEqual({
      LOCAL_COUNTERPARTIES: 'true',
      PIX_API_URL: 'http://pix-api-test:8480',
      PIX_API_CLIENT_ID: 'partner-service',
    });
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

  it("the Pix API test server: the chain image runs tools/pix-api-test-server, for inflows' client, its secret the same Compose secret; inflows starts after it", () => {
    const server = config.services['pix-api-test'];
    expectRunsImageOf(config, 'chain-eth', ['pix-api-test']);
    expect(commandOf(server)).toBe('node_modules/.bin/tsx tools/pix-api-test-server/src/serve.ts');
    expect(server.restart).toBe('no');
    // Listening on every interface of its container, on the port inflows is given; published nowhere.
    expect(server.environment).toEqual({
      PIX_API_TEST_PORT: '8480',
      PIX_API_TEST_HOST: '0.0.0.0',
      PIX_API_CLIENT_ID: config.services.inflows.environment?.PIX_API_CLIENT_ID,
      PIX_API_CLIENT_SECRET_FILE: '/run/secrets/pix_api_client_secret',
    });
    expect(server.ports).toBeUndefined();
    expect(new URL(String(config.services.inflows.environment?.PIX_API_URL)).port).toBe(server.environment?.PIX_API_TEST_PORT);
    expect(mountedBy(server)).toEqual(['pix_api_client_secret']);
    // The sandbox env file (and compose:up's local counterparties, which take it from there) names the same
    // server, and a clearly fake secret the server needs (it refuses an empty one).
    expect(sandboxEnv.PIX_API_URL).toBe(config.services.inflows.environment?.PIX_API_URL);
    expect(DEV_DEFAULTS.has(sandboxEnv.PIX_API_CLIENT_SECRET ?? '')).toBe(true);
    expect(config.services.inflows.environment?.PIX_API_CLIENT_SECRET_FILE).toBe('/run/secrets/pix_api_client_secret');
    expect(dependsOn(config.services.inflows)).toMatchObject({ ...AFTER_DEPLOY_STEPS, 'pix-api-test': 'service_started' });
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
      // The node's URL, a secret file here too: the sandbox's, which its secret file holds.
      const secret = `chain_rpc_url_${network.toLowerCase()}`;
      expect(env[`CHAIN_RPC_URL_${network}_FILE`]).toBe(`/run/secrets/${secret}`);
      expect(env[`CHAIN_RPC_URL_${network}`]).toBeUndefined();
      const node = readFileSync(resolve(repoRoot, config.secrets?.[secret]?.file ?? ''), 'utf8');
      expect(node).toBe(`http://${name}:8545`);
      expect(sandboxEnv[`CHAIN_RPC_URL_${network}`]).toBe(node);
      // The dev-only chain-setup step gets the same test URL as a variable.
      expect(config.services['chain-setup'].environment?.[`CHAIN_RPC_URL_${network}`]).toBe(node);
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
