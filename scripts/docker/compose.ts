/**
 * The platform team's commands for docker-compose.yml; docs/operations.md ("Deploying with Compose") is
 * their reference.
 *
 *   npm run compose:up [-- --local-chains]        base images (official, or stand-ins: ADR 0018), the Dockerfile's
 *                                                 images, the stack (with local test chains instead of real ones);
 *                                                 waits until every service is ready, prints the URLs
 *   npm run compose:down [-- --forget-secrets]    removes containers, networks and volumes (and the env file, and the
 *                                                 hot wallet keys generated for local chains: never one that may hold funds)
 *
 * Secrets missing from the environment are generated once into the env file (COMPOSE_ENV_FILE, default .env:
 * git-ignored, mode 600), which plain `docker compose` reuses; each hot wallet key is a file, never a variable.
 * The public port's TLS certificate: PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE, or a self-signed pair generated
 * beside the env file (scripts/docker/proxy-tls.ts).
 * Environment: COMPOSE_PROJECT_NAME, COMPOSE_ENV_FILE, SANDBOX, COMPOSE_LOCAL_CHAINS, GATEWAY_PORT, OPERATOR_PORT,
 * CHAIN_PORT_ETH, CHAIN_PORT_MATIC, COMPOSE_READY_TIMEOUT_S, COMPOSE_STAND_INS and the *_IMAGE variables
 * (offline/images/stand-ins.ts), COMPOSE_COMMAND.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { Address } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { ensureDictPki, quickstartSigner } from '@partner/dict-test-server';
import { hotWalletAddress } from '../chain/local-chains';
import { runMain } from '../lib/main';
import { repoRoot } from '../lib/services';
import { CHAIN_URL_VARIABLES, HOT_WALLET_KEY_SECRETS, OPERATOR_SECRET_VARIABLES, SECRET_VARIABLES } from './compose-variables';
import { composeCommand, docker, engineProblem, ensureEngine, run, Run, runVisible } from './docker';
import { ensureBaseImages, imageNames, IMAGE_VARIABLE, KINDS } from '../../offline/images/stand-ins';
import { ensureSelfSignedCertificate } from './proxy-tls';

const root = repoRoot();
const shown = (file: string): string => relative(root, file) || file;

/** Where dockerd logs when compose:up (or compose:e2e) had to start it. */
export const DOCKERD_LOG = join(root, '.cache', 'dockerd.log');
/** The overlay that adds local test chains (development and CI). */
const LOCAL_CHAINS_FILE = 'docker-compose.local-chains.yml';
/** The uid of the images' `node` user: it reads the bind-mounted secret (outside swarm, the host file's mode applies). */
const CONTAINER_UID = 1000;

export type ComposeSettings = ReturnType<typeof composeSettings>;

export function composeSettings(env: NodeJS.ProcessEnv = process.env) {
  const envFile = env.COMPOSE_ENV_FILE || join(root, '.env');
  const stored = readEnvFile(envFile);
  const sandbox = env.SANDBOX === 'true';
  // Chosen once (--local-chains) and remembered in the env file: its COMPOSE_FILE names the overlay.
  const remembered = (stored.COMPOSE_FILE ?? '').split(':').some((file) => basename(file) === LOCAL_CHAINS_FILE);
  const nodesGiven = CHAIN_URL_VARIABLES.some((name) => env[name] || stored[name]);
  return {
    project: env.COMPOSE_PROJECT_NAME || 'partner-service',
    envFile,
    gatewayPort: Number(env.GATEWAY_PORT || 3000),
    operatorPort: Number(env.OPERATOR_PORT || 3100),
    sandbox,
    // Local test chains (LOCAL_CHAINS_FILE) rather than the operator's nodes. The sandbox never holds real
    // money: local chains unless it is given nodes (a testnet's, say).
    localChains: env.COMPOSE_LOCAL_CHAINS === 'true' || remembered || (sandbox && !nodesGiven),
    // The local chains' JSON-RPC ports on the host's loopback.
    chainPorts: { ETH: Number(env.CHAIN_PORT_ETH || 8555), MATIC: Number(env.CHAIN_PORT_MATIC || 8556) },
  };
}

/** An env file's variables as Compose reads them; none when it does not exist. */
export const readEnvFile = (file: string): Record<string, string> =>
  existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {};

/** Appends `lines` to the env file, creating it with mode 600 if needed. */
function appendToEnvFile(settings: ComposeSettings, lines: string[]): void {
  const previous = existsSync(settings.envFile) ? readFileSync(settings.envFile, 'utf8') : '';
  const separator = previous === '' || previous.endsWith('\n') ? '' : '\n';
  writeFileSync(settings.envFile, `${previous}${separator}${lines.map((line) => `${line}\n`).join('')}`, { mode: 0o600 });
  chmodSync(settings.envFile, 0o600);
}

/** Writes the variables of `wanted` the env file lacks (a value already there is kept), under `comment`; returns their names. */
function appendMissing(settings: ComposeSettings, comment: string, wanted: Record<string, string>): string[] {
  const stored = readEnvFile(settings.envFile);
  const missing = Object.keys(wanted).filter((name) => stored[name] === undefined);
  if (missing.length > 0) appendToEnvFile(settings, [comment, ...missing.map((name) => `${name}=${wanted[name]}`)]);
  return missing;
}

/**
 * Every secret is in the environment or the env file afterwards: the ones in neither are generated, URL-safe
 * (they go into DATABASE_URLs) and 32+ characters (the gateway's rule for an operator key). Returns their names.
 */
function ensureSecrets(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const stored = readEnvFile(settings.envFile);
  const missing = SECRET_VARIABLES.filter((name) => !env[name] && !stored[name]);
  const generate = (name: string): string =>
    name === 'ADMIN_API_KEY' ? `adm_${randomBytes(32).toString('base64url')}` : randomBytes(24).toString('base64url');
  const header = [
    '# Secrets of the Compose stack, generated by `npm run compose:up` (docs/operations.md: "Secrets and their rotation").',
    '# Never commit this file (it is git-ignored); a variable set in the environment wins over it.',
    `COMPOSE_PROJECT_NAME=${settings.project}`,
    '',
  ];
  if (missing.length > 0)
    appendToEnvFile(settings, [...(existsSync(settings.envFile) ? [] : header), ...missing.map((name) => `${name}=${generate(name)}`)]);
  return missing;
}

/** The Compose secret (a file of COMPOSE_SECRETS_DIR) that holds a secret variable's value. */
export const secretFileName = (variable: string): string => variable.toLowerCase();

/**
 * Writes each secret (SECRET_VARIABLES, from the environment or the env file: ensureSecrets first; and the
 * operator's own, OPERATOR_SECRET_VARIABLES, an optional one not given as an empty file) to its
 * file in the secrets folder (COMPOSE_SECRETS_DIR, default `<env file>.secrets`, named in the env file), which
 * docker-compose.yml mounts as Compose secrets: no container's environment holds one. The folder is mode 700
 * (the host's guard); the files 644, as the containers read them under their own users (node, postgres). A
 * changed value (a rotation) rewrites its file. Returns the folder.
 */
export function writeSecretFiles(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): string {
  const stored = readEnvFile(settings.envFile);
  const named = env.COMPOSE_SECRETS_DIR || stored.COMPOSE_SECRETS_DIR;
  const dir = named ? resolve(root, named) : besideEnvFile(settings, 'secrets');
  if (!named)
    appendToEnvFile(settings, [
      '# The folder of the Compose secrets, written from the variables above by compose:up.',
      `COMPOSE_SECRETS_DIR=${asEnvPath(dir)}`,
    ]);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const missing = OPERATOR_SECRET_VARIABLES.required.filter((variable) => !(env[variable] || stored[variable]));
  if (missing.length > 0)
    throw new Error(
      `${missing.join(', ')} not set: your own secrets, written as Compose secrets like the generated ones (export them, or put ` +
        'them in the env file; npm run compose:up -- --local-chains sets test ones; docs/operations.md: "Secrets and their rotation")',
    );
  const values: Array<[string, string]> = [
    ...SECRET_VARIABLES.map((variable): [string, string] => {
      const value = env[variable] || stored[variable];
      if (!value) throw new Error(`${variable} has no value to write as a secret file`);
      return [variable, value];
    }),
    ...[...OPERATOR_SECRET_VARIABLES.required, ...OPERATOR_SECRET_VARIABLES.optional].map((variable): [string, string] => [
      variable,
      env[variable] || stored[variable] || '',
    ]),
  ];
  for (const [variable, value] of values) {
    const file = join(dir, secretFileName(variable));
    if (!existsSync(file) || readFileSync(file, 'utf8') !== value) writeFileSync(file, value, { mode: 0o644 });
    chmodSync(file, 0o644);
  }
  return dir;
}

/** A path as the env file names it: relative to the repository (./...) when inside it, else absolute. */
function asEnvPath(file: string): string {
  const path = relative(root, file);
  return path.startsWith('..') || isAbsolute(path) ? file : `./${path}`;
}

/**
 * The local chains' and local counterparties' settings (the DICT test server, the Pix API test server, the
 * notification sinks): those of docker-compose.sandbox.env, which runs the same overlay (its nodes by service
 * name, their chain ids, the test USDT chain-setup.ts deploys, finality by confirmations).
 */
const sandboxEnv = readEnvFile(join(root, 'docker-compose.sandbox.env'));
const sandboxSettings = (pattern: RegExp): Record<string, string> =>
  Object.fromEntries(Object.entries(sandboxEnv).filter(([name]) => pattern.test(name)));
export const LOCAL_CHAIN_ENV = sandboxSettings(/^(CHAIN_|USDT_CONTRACT_)/);
const LOCAL_COUNTERPARTY_ENV = sandboxSettings(/^(DICT_URL|DICT_ISPB|OPERATOR_ISPB|PIX_API_URL|PIX_API_CLIENT_SECRET|SMTP_|TWILIO_)/);

/**
 * Local chains: COMPOSE_FILE and LOCAL_CHAIN_ENV into the env file, the missing ones. A variable of the
 * environment that contradicts them would win over the file: refused.
 */
function ensureLocalChainSettings(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const conflicting = Object.keys(LOCAL_CHAIN_ENV).filter((name) => env[name] && env[name] !== LOCAL_CHAIN_ENV[name]);
  if (conflicting.length > 0)
    throw new Error(
      `local chains, but the environment sets ${conflicting.map((name) => `${name}=${env[name]}`).join(', ')}: unset them, or leave out --local-chains`,
    );
  return appendMissing(settings, `# Local test chains (npm run compose:up -- --local-chains; ${LOCAL_CHAINS_FILE}): never real money.`, {
    COMPOSE_FILE: `docker-compose.yml:${LOCAL_CHAINS_FILE}`,
    ...LOCAL_CHAIN_ENV,
  });
}

/** A file beside the env file, git-ignored (`.env.*`) and out of the image build (.dockerignore). */
const besideEnvFile = (settings: ComposeSettings, suffix: string): string =>
  join(dirname(settings.envFile), `${basename(settings.envFile)}.${suffix}`);

/** The file name of the test DICT's signer in DICT_CERTS_DIR (docker-compose.local-chains.yml mounts it). */
const DICT_SIGNER_JAR = 'quickstart-signer.jar';

/**
 * Local counterparties: the test DICT's certificates generated (readable by the containers' uid), their settings
 * written (the Pix API test server's URL and client secret among them: pix-api-test takes the same secret file).
 */
async function ensureLocalCounterparties(settings: ComposeSettings): Promise<string[]> {
  const dir = besideEnvFile(settings, 'dict');
  const pki = await ensureDictPki(dir);
  // The test DICT signs and checks with the Central Bank's own XMLSigner (Java): built here, mounted with the certificates.
  const signerJar = join(dir, DICT_SIGNER_JAR);
  copyFileSync(quickstartSigner(), signerJar);
  if (process.getuid?.() === 0)
    for (const file of new Set([dir, signerJar, ...Object.values(pki)])) chownSync(file, CONTAINER_UID, CONTAINER_UID);
  return appendMissing(settings, `# Local DICT and Pix API test servers, notification sinks (${LOCAL_CHAINS_FILE}): never real people.`, {
    ...LOCAL_COUNTERPARTY_ENV,
    DICT_CERTS_DIR: dir,
  });
}

/** The proxy's certificate and key files (the Compose secrets proxy_tls_cert and proxy_tls_key). */
export const PROXY_TLS_VARIABLES = { cert: 'PROXY_TLS_CERT_FILE', key: 'PROXY_TLS_KEY_FILE' } as const;

/** The broker's certificate and key files (the Compose secrets kafka_tls_cert and kafka_tls_key): the bus's TLS. */
export const KAFKA_TLS_VARIABLES = { cert: 'KAFKA_TLS_CERT_FILE', key: 'KAFKA_TLS_KEY_FILE' } as const;

interface TlsPair {
  variables: { cert: string; key: string };
  /** What the pair is for, in messages. */
  what: string;
  /** The self-signed pair's files beside the env file: `.env.<base>.pem` and `.env.<base>.key`. */
  base: string;
  /** Host names of the self-signed certificate besides localhost. */
  hosts?: readonly string[];
  /** The key's reader in its container when not root (a secret outside swarm keeps the host file's owner and mode). */
  keyOwnerUid?: number;
}

/**
 * A TLS certificate of the stack: the operator's (both variables naming their files), or a self-signed one
 * generated beside the env file and named there. Answers the certificate's file, and whether it is self-signed here.
 */
async function ensureTlsPair(settings: ComposeSettings, pair: TlsPair): Promise<{ certFile: string; selfSigned: boolean }> {
  const stored = readEnvFile(settings.envFile);
  const named = (variable: string): string | undefined => process.env[variable] || stored[variable];
  const [cert, key] = [named(pair.variables.cert), named(pair.variables.key)];
  if (cert && key) {
    for (const file of [cert, key])
      if (!existsSync(resolve(root, file))) throw new Error(`${file} (${pair.what}'s certificate or key) does not exist`);
    return { certFile: resolve(root, cert), selfSigned: false };
  }
  if (cert || key)
    throw new Error(`${pair.variables.cert} and ${pair.variables.key} go together: name both files, or neither for a self-signed pair`);
  const [certFile, keyFile] = [besideEnvFile(settings, `${pair.base}.pem`), besideEnvFile(settings, `${pair.base}.key`)];
  await ensureSelfSignedCertificate(certFile, keyFile, pair.hosts);
  if (pair.keyOwnerUid !== undefined && process.getuid?.() === 0) chownSync(keyFile, pair.keyOwnerUid, pair.keyOwnerUid);
  appendToEnvFile(settings, [
    `# ${pair.what}'s TLS certificate, self-signed by compose:up (clients must be given it): replace it with your own.`,
    `${pair.variables.cert}=${asEnvPath(certFile)}`,
    `${pair.variables.key}=${asEnvPath(keyFile)}`,
  ]);
  return { certFile, selfSigned: true };
}

/** The public port's TLS certificate (PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE, or `.env.tls.pem` and `.env.tls.key`). */
export const ensureProxyTls = (settings: ComposeSettings) =>
  ensureTlsPair(settings, { variables: PROXY_TLS_VARIABLES, what: 'the public port', base: 'tls' });

/**
 * The broker's TLS certificate (KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE, or `.env.kafka-tls.pem` and
 * `.env.kafka-tls.key`), for the host name `kafka`; the apps trust it by its file (KAFKA_SSL_CA_FILE).
 */
export const ensureKafkaTls = (settings: ComposeSettings) =>
  ensureTlsPair(settings, {
    variables: KAFKA_TLS_VARIABLES,
    what: 'the broker',
    base: 'kafka-tls',
    hosts: ['kafka'],
    keyOwnerUid: CONTAINER_UID,
  });

interface HotWalletKeyFile {
  /** The Compose secret and the variable naming its host file (HOT_WALLET_KEY_SECRETS). */
  secret: string;
  variable: string;
  file: string;
  /** Not with a remote signer (the file is not read). */
  address?: Address;
  generated: boolean;
}

/**
 * The hot wallet pool's key files (HOT_WALLET_KEY_SECRETS: HOT_WALLET_KEY_SECRET_FILE and
 * HOT_WALLET_KEY_2_SECRET_FILE, from the environment or the env file), checked: each holds a key of its own
 * and uid 1000 may read it. One not named: with a remote signer /dev/null (not read); with key-file signing a
 * new key beside the env file (`.env.hot_wallet_key`, `.env.hot_wallet_key_2`), named there. Never prints a key.
 */
function ensureHotWalletKeys(settings: ComposeSettings): HotWalletKeyFile[] {
  const stored = readEnvFile(settings.envFile);
  const signer = process.env.HOT_WALLET_SIGNER || stored.HOT_WALLET_SIGNER || 'key-file';
  const named = (variable: string): string | undefined => process.env[variable] || stored[variable];
  if (signer === 'remote') {
    const unnamed = HOT_WALLET_KEY_SECRETS.filter(({ variable }) => !named(variable));
    if (unnamed.length > 0)
      appendToEnvFile(settings, [
        '# The remote signer holds the hot wallet keys: the secret files are not read.',
        ...unnamed.map(({ variable }) => `${variable}=/dev/null`),
      ]);
    return HOT_WALLET_KEY_SECRETS.map(({ secret, variable }) => ({
      secret,
      variable,
      file: named(variable) || '/dev/null',
      generated: false,
    }));
  }
  const keys = HOT_WALLET_KEY_SECRETS.map(({ secret, variable }) => ensureHotWalletKey(settings, secret, variable, named(variable)));
  keys.forEach((key, i) => {
    const first = keys.findIndex((other) => other.address === key.address);
    if (first !== i)
      throw new Error(
        `${keys[first].variable} and ${key.variable} hold the same key (${key.address}): each wallet of the pool needs its own`,
      );
  });
  return keys;
}

/** One key file of the pool (ensureHotWalletKeys): `named` checked, or a new one generated beside the env file. */
function ensureHotWalletKey(settings: ComposeSettings, secret: string, variable: string, named: string | undefined): HotWalletKeyFile {
  const file = named ? resolve(root, named) : besideEnvFile(settings, secret);
  const generated = !named && !existsSync(file);
  if (generated) writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600, flag: 'wx' });
  if (!named) {
    if (process.getuid?.() === 0) chownSync(file, CONTAINER_UID, CONTAINER_UID);
    appendToEnvFile(settings, [
      `# A hot wallet key (the Compose secret ${secret}): a file, never a variable. Back it up.`,
      `${variable}=${asEnvPath(file)}`,
    ]);
  }
  if (!existsSync(file)) throw new Error(`${variable} ${named} does not exist`);
  const address = hotWalletAddress(file);
  const { uid, gid, mode } = statSync(file);
  const readable = uid === CONTAINER_UID ? (mode & 0o400) !== 0 : (mode & 0o004) !== 0 || (gid === CONTAINER_UID && (mode & 0o040) !== 0);
  if (!readable)
    throw new Error(
      `${variable} ${file}: the withdrawals container reads it as uid ${CONTAINER_UID} (its \`node\` user; outside swarm a secret is a bind mount with the host file's owner and mode): chown ${CONTAINER_UID} ${file} (and keep it mode 600)`,
    );
  return { secret, variable, file, address, generated };
}

/** Compose's command line for this project: its files, its name, its env file. */
function composeArgs(settings: ComposeSettings, args: string[]): [string, string[]] {
  const [command, ...prefix] = composeCommand();
  const files = ['docker-compose.yml', ...(settings.localChains ? [LOCAL_CHAINS_FILE] : [])];
  const envFile = existsSync(settings.envFile) ? ['--env-file', settings.envFile] : [];
  return [
    command,
    [...prefix, ...files.flatMap((f) => ['-f', join(root, f)]), '--project-directory', root, '-p', settings.project, ...envFile, ...args],
  ];
}

/** Runs Compose on this project, capturing its output. */
export const compose = (settings: ComposeSettings, args: string[], env: NodeJS.ProcessEnv = process.env): Run =>
  run(...composeArgs(settings, args), { cwd: root, env });

const composeVisible = (what: string, settings: ComposeSettings, args: string[], env: NodeJS.ProcessEnv): void =>
  runVisible(what, ...composeArgs(settings, args), { cwd: root, env });

/** The project's containers: service, name, state and health (none without a health check). */
export function containersOf(
  project: string,
  all = true,
): Array<{ service: string; name: string; status: string; health: string; exitCode: number }> {
  const ids = docker(['ps', ...(all ? ['-a'] : []), '-q', '--filter', `label=com.docker.compose.project=${project}`])
    .stdout.split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  const format =
    '{{index .Config.Labels "com.docker.compose.service"}}|{{.Name}}|{{.State.Status}}|{{if .State.Health}}{{.State.Health.Status}}{{end}}|{{.State.ExitCode}}';
  return docker(['inspect', '--format', format, ...ids])
    .stdout.split('\n')
    .filter(Boolean)
    .map((line) => {
      const [service, name, status, health, exitCode] = line.split('|');
      return { service, name: name.replace(/^\//, ''), status, health, exitCode: Number(exitCode) };
    });
}

/** The one-shot steps: done once exited 0. */
const ONE_SHOT = new Set(['migrate', 'kafka-setup', 'chain-setup']);

/** Waits until every long-running container is healthy and every one-shot step has exited 0. */
async function waitUntilReady(settings: ComposeSettings, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const containers = containersOf(settings.project);
    const failed = containers.filter((c) => ONE_SHOT.has(c.service) && c.status === 'exited' && c.exitCode !== 0);
    if (failed.length > 0)
      throw new Error(
        `${failed.map((c) => c.service).join(', ')} failed (exit ${failed[0].exitCode}): see \`docker logs ${failed[0].name}\``,
      );
    const waiting = containers.filter((c) =>
      ONE_SHOT.has(c.service) ? c.status !== 'exited' : c.status !== 'running' || (c.health !== '' && c.health !== 'healthy'),
    );
    if (containers.length > 0 && waiting.length === 0) return;
    const last = waiting.map((c) => `${c.service} ${c.health || c.status}`).join(', ') || 'no container yet';
    if (Date.now() > deadline) throw new Error(`not ready after ${Math.round(timeoutMs / 1000)} s: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The environment Compose runs with: ours, the image names resolved, production unless SANDBOX=true, the
 * published ports. Every Compose command on the stack needs the same (a changed port recreates a container,
 * and a recreated chain node is a new, empty chain).
 */
export function composeEnv(settings: ComposeSettings): NodeJS.ProcessEnv {
  const images = imageNames();
  return {
    ...process.env,
    ...Object.fromEntries(KINDS.map((kind) => [IMAGE_VARIABLE[kind], images[kind]])),
    SANDBOX: String(settings.sandbox),
    GATEWAY_PORT: String(settings.gatewayPort),
    OPERATOR_PORT: String(settings.operatorPort),
    CHAIN_PORT_ETH: String(settings.chainPorts.ETH),
    CHAIN_PORT_MATIC: String(settings.chainPorts.MATIC),
  };
}

const seconds = (since: number): string => `${Math.round((Date.now() - since) / 100) / 10} s`;

export async function composeUp(settings: ComposeSettings = composeSettings()): Promise<void> {
  const problem = await ensureEngine(DOCKERD_LOG);
  if (problem) throw new Error(`no Docker engine: ${problem} (docs/operations.md: "Deploying with Compose")`);
  const started = Date.now();
  const stored = readEnvFile(settings.envFile);
  const missingNodes = CHAIN_URL_VARIABLES.filter((name) => !process.env[name] && !stored[name]);
  if (!settings.localChains && missingNodes.length > 0)
    throw new Error(
      `${missingNodes.join(' and ')} not set: the withdrawals service pays through your Ethereum and Polygon PoS nodes ` +
        '(export them, or put them in the env file), or run local test chains: npm run compose:up -- --local-chains ' +
        '(docs/operations.md: "Chains and the hot wallet")',
    );
  const envFile = shown(settings.envFile);
  const wrote = (what: string, names: string[]) =>
    names.length > 0 && console.log(`${what} ${names.join(', ')} into ${envFile} (mode 600)`);
  wrote('secrets: generated', ensureSecrets(settings));
  if (settings.localChains) {
    wrote('local chains: wrote', ensureLocalChainSettings(settings));
    wrote('local DICT, Pix API and notification sinks: wrote', await ensureLocalCounterparties(settings));
  }
  console.log(`secrets: written as Compose secrets into ${shown(writeSecretFiles(settings))} (mode 700)`);
  const tls = await ensureProxyTls(settings);
  if (tls.selfSigned)
    console.log(`TLS: the public port uses the self-signed certificate ${shown(tls.certFile)} (give it to clients, or name your own)`);
  const busTls = await ensureKafkaTls(settings);
  if (busTls.selfSigned) console.log(`TLS: the broker uses the self-signed certificate ${shown(busTls.certFile)} (the apps are given it)`);
  const wallets = ensureHotWalletKeys(settings);
  for (const wallet of wallets.filter((w) => w.generated))
    console.log(
      `hot wallet: generated a new key into ${shown(wallet.file)} (mode 600, owner uid ${CONTAINER_UID}); ` +
        `address ${wallet.address}${settings.localChains ? ' (chain-setup funds it on the local chains)' : ': fund it on both networks, and back the file up'}`,
    );
  const signing = wallets.every((w) => w.address)
    ? wallets.map((w) => `${w.address} (key: ${shown(w.file)})`).join('\n                 ')
    : 'the remote signer (REMOTE_SIGNER_ADDRESS)';
  const env = composeEnv(settings);

  await ensureBaseImages(imageNames(env));
  const building = Date.now();
  composeVisible('building the images', settings, ['build'], env);
  console.log(`images built in ${seconds(building)}`);

  const starting = Date.now();
  composeVisible('starting the stack', settings, ['up', '-d', '--remove-orphans'], env);
  await waitUntilReady(settings, Number(process.env.COMPOSE_READY_TIMEOUT_S ?? 420) * 1000);
  const publicUrl = `https://localhost:${settings.gatewayPort}`;
  const operatorUrl = `http://127.0.0.1:${settings.operatorPort}`;
  const { ETH, MATIC } = settings.chainPorts;
  console.log(`
  Ready in ${seconds(starting)} (${seconds(started)} with the images), project ${settings.project}, ${settings.sandbox ? 'sandbox (SANDBOX=true)' : 'production mode (SANDBOX=false)'}
  Partner API:   ${publicUrl}/partner/v1   (reference: ${publicUrl}/docs)
  Operator API:  ${operatorUrl}/admin/v1   this host only; X-Admin-Key: ADMIN_API_KEY ${process.env.ADMIN_API_KEY ? 'of your environment' : `in ${envFile}`}
  Internal:      ${operatorUrl}/readyz and ${operatorUrl}/metrics
  Chains:        ${
    settings.localChains
      ? `local test chains (never real money): ETH http://127.0.0.1:${ETH} (chain ${LOCAL_CHAIN_ENV.CHAIN_ID_ETH}), MATIC http://127.0.0.1:${MATIC} (chain ${LOCAL_CHAIN_ENV.CHAIN_ID_MATIC}), USDT ${LOCAL_CHAIN_ENV.USDT_CONTRACT_ETH}`
      : 'the nodes of CHAIN_RPC_URL_ETH and CHAIN_RPC_URL_MATIC'
  }
  Hot wallets:   ${signing}
  Try:  curl -s -X POST ${operatorUrl}/admin/v1/partners -H "X-Admin-Key: $ADMIN_API_KEY" -H 'Content-Type: application/json' -d '{"name":"acme"}'
  Stop: npm run compose:down   (removes containers, networks and volumes; keeps ${envFile})
`);
}

export function composeDown(settings: ComposeSettings = composeSettings(), forgetSecrets = false): void {
  const problem = engineProblem();
  if (problem) throw new Error(`no Docker engine answers (${problem})`);
  // `down` needs no secret, but Compose interpolates the whole file first: stand-ins for the missing ones.
  const stored = readEnvFile(settings.envFile);
  const paths = [
    ...HOT_WALLET_KEY_SECRETS.map((s) => s.variable),
    ...Object.values(PROXY_TLS_VARIABLES),
    ...Object.values(KAFKA_TLS_VARIABLES),
    'DICT_CERTS_DIR',
    'COMPOSE_SECRETS_DIR',
  ];
  const placeholders = Object.fromEntries(
    [...SECRET_VARIABLES, ...CHAIN_URL_VARIABLES, ...paths, ...Object.keys(LOCAL_COUNTERPARTY_ENV)]
      .filter((name) => !process.env[name] && !stored[name])
      .map((name) => [name, paths.includes(name) ? '/dev/null' : 'unused-by-down']),
  );
  // With the local chains' file whatever the stack ran with, so that their containers go too.
  const args = ['--profile', 'tools', 'down', '--volumes', '--remove-orphans'];
  composeVisible('removing the stack', { ...settings, localChains: true }, args, { ...composeEnv(settings), ...placeholders });
  if (!forgetSecrets) return;
  // Generated hot wallet keys go too only when they paid on local chains; else they may control funds: kept
  // (and reused by the next compose:up).
  const keyFiles = HOT_WALLET_KEY_SECRETS.map(({ secret }) => besideEnvFile(settings, secret));
  const localKey = (stored.COMPOSE_FILE ?? '').includes(LOCAL_CHAINS_FILE);
  const generated = [besideEnvFile(settings, 'tls.pem'), besideEnvFile(settings, 'tls.key'), besideEnvFile(settings, 'secrets')];
  for (const file of [settings.envFile, ...generated, ...(localKey ? keyFiles : [])].filter((f) => existsSync(f))) {
    rmSync(file, { recursive: true });
    console.log(`removed ${shown(file)}`);
  }
  for (const keyFile of keyFiles)
    if (!localKey && existsSync(keyFile)) console.log(`kept ${shown(keyFile)}: a hot wallet key (its funds); remove it yourself`);
}

if (require.main === module) {
  const [command, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  runMain('compose', async () => {
    if (command === 'up')
      await composeUp(composeSettings(rest.includes('--local-chains') ? { ...process.env, COMPOSE_LOCAL_CHAINS: 'true' } : process.env));
    else if (command === 'down') composeDown(composeSettings(), rest.includes('--forget-secrets'));
    else throw new Error('usage: tsx scripts/docker/compose.ts up [--local-chains] | down [--forget-secrets]');
  });
}
