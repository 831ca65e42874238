/**
 * The platform team's commands for docker-compose.yml (docs/operations.md: "Deploying with Compose").
 *
 *   npm run compose:up      the base images (official, or local stand-ins where no registry answers), the
 *                           two images of the Dockerfile, the whole stack; waits until every service is
 *                           ready (their health checks probe /readyz) and prints the public and operator URLs
 *   npm run compose:up -- --local-chains
 *                           the same with local test chains (docker-compose.local-chains.yml: a Hardhat node
 *                           per network, the test USDT deployed, the hot wallet funded) instead of real ones
 *   npm run compose:down    removes the stack's containers, networks and volumes (the data); keeps the
 *                           images and the env file with the secrets (`-- --forget-secrets` removes it, and
 *                           the hot wallet key it generated for local chains; never one that may hold funds)
 *
 * Secrets: ADMIN_API_KEY, POSTGRES_PASSWORD and every DB_PASSWORD_<SCHEMA> are taken from the environment
 * when set; the missing ones are generated once into the env file (COMPOSE_ENV_FILE, default .env beside
 * docker-compose.yml: git-ignored, mode 600), which later runs and plain `docker compose` commands reuse.
 * The hot wallet's key is a file, never a variable: HOT_WALLET_KEY_SECRET_FILE names it (the Compose secret
 * `hot_wallet_key`); when none is named, a new key is generated into `<env file>.hot_wallet_key` (git-ignored
 * as `.env.*`, mode 600, owned by uid 1000: the containers' `node` reads the bind-mounted secret).
 *
 * Chains: production mode needs CHAIN_RPC_URL_ETH and CHAIN_RPC_URL_MATIC (the environment or the env file)
 * and refuses to start without them; `--local-chains` (COMPOSE_LOCAL_CHAINS=true; SANDBOX=true without RPC
 * URLs) runs local test chains instead and remembers that choice in the env file (COMPOSE_FILE and the chain
 * settings, so plain `docker compose` uses both files too).
 *
 * Environment: COMPOSE_PROJECT_NAME (partner-service), COMPOSE_ENV_FILE, SANDBOX (false), GATEWAY_PORT
 * (3000), OPERATOR_PORT (3100), CHAIN_PORT_ETH (8555) and CHAIN_PORT_MATIC (8556) for local chains,
 * COMPOSE_READY_TIMEOUT_S (420), COMPOSE_STAND_INS and the *_IMAGE variables (offline/images/stand-ins.ts),
 * COMPOSE_COMMAND (`docker compose` when that answers, else docker-compose).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ensureDictPki, STACK_OPERATOR_ISPB } from '@partner/dict-test-server';
import { DEV_SINKS } from '@partner/notification-sinks';
import { APP_NAMES, pgSchemaOf } from '@partner/contracts';
import { repoRoot } from '../lib/services';
import { composeCommand, docker, engineProblem, ensureEngine, run, runVisible } from './docker';
import { ensureBaseImages, imageNames, IMAGE_VARIABLE, KINDS } from '../../offline/images/stand-ins';

const root = repoRoot();

/** Where dockerd logs when compose:up (or compose:e2e) had to start it. */
export const DOCKERD_LOG = join(root, '.cache', 'dockerd.log');

/** The overlay that adds local test chains (development and CI). */
export const LOCAL_CHAINS_FILE = 'docker-compose.local-chains.yml';

export interface ComposeSettings {
  project: string;
  envFile: string;
  gatewayPort: number;
  operatorPort: number;
  sandbox: boolean;
  /** Local test chains (docker-compose.local-chains.yml) rather than the operator's nodes. */
  localChains: boolean;
  /** The local chains' JSON-RPC ports on the host's loopback. */
  chainPorts: { ETH: number; MATIC: number };
}

/** The operator's chain nodes: required in production mode (docker-compose.yml has no default for them). */
export const CHAIN_URL_VARIABLES: readonly string[] = ['CHAIN_RPC_URL_ETH', 'CHAIN_RPC_URL_MATIC'];

export function composeSettings(env: NodeJS.ProcessEnv = process.env): ComposeSettings {
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
    // The sandbox never holds real money: local chains unless it is given nodes (a testnet's, say).
    localChains: env.COMPOSE_LOCAL_CHAINS === 'true' || remembered || (sandbox && !nodesGiven),
    chainPorts: { ETH: Number(env.CHAIN_PORT_ETH || 8555), MATIC: Number(env.CHAIN_PORT_MATIC || 8556) },
  };
}

/** The variables docker-compose.yml requires (`${NAME:?...}`): no default secret anywhere. */
export const SECRET_VARIABLES: readonly string[] = [
  'ADMIN_API_KEY',
  'INTERNAL_SECRET',
  'POSTGRES_PASSWORD',
  ...APP_NAMES.map((app) => `DB_PASSWORD_${pgSchemaOf(app).toUpperCase()}`),
];

/** URL-safe (they go into DATABASE_URLs), 32+ characters (the gateway's rule for an operator key). */
const generate = (name: string): string =>
  name === 'ADMIN_API_KEY' ? `adm_${randomBytes(32).toString('base64url')}` : randomBytes(24).toString('base64url');

/** `NAME=value` lines of an env file as Compose reads them. */
export function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#') && line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * Every secret is in the environment or the env file afterwards: the ones in neither are generated and
 * appended to the file (created with mode 600). Returns the names generated now.
 */
export function ensureSecrets(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const stored = readEnvFile(settings.envFile);
  const missing = SECRET_VARIABLES.filter((name) => !env[name] && !stored[name]);
  if (missing.length === 0) return [];
  const header = existsSync(settings.envFile)
    ? ''
    : [
        '# Secrets of the Compose stack, generated by `npm run compose:up` (docs/operations.md: "Secrets and their rotation").',
        '# Never commit this file (it is git-ignored); a variable set in the environment wins over it.',
        `COMPOSE_PROJECT_NAME=${settings.project}`,
        '',
      ].join('\n');
  const previous = existsSync(settings.envFile) ? readFileSync(settings.envFile, 'utf8') : '';
  const separator = previous === '' || previous.endsWith('\n') ? '' : '\n';
  writeFileSync(settings.envFile, `${previous}${separator}${header}${missing.map((name) => `${name}=${generate(name)}\n`).join('')}`, {
    mode: 0o600,
  });
  chmodSync(settings.envFile, 0o600);
  return missing;
}

/** Appends `lines` (already `NAME=value` or comments) to the env file, creating it with mode 600 if needed. */
function appendToEnvFile(settings: ComposeSettings, lines: string[]): void {
  const previous = existsSync(settings.envFile) ? readFileSync(settings.envFile, 'utf8') : '';
  const separator = previous === '' || previous.endsWith('\n') ? '' : '\n';
  writeFileSync(settings.envFile, `${previous}${separator}${lines.map((line) => `${line}\n`).join('')}`, { mode: 0o600 });
  chmodSync(settings.envFile, 0o600);
}

/**
 * What the withdrawals service is given for the local chains (docker-compose.local-chains.yml): its nodes
 * by service name, their chain ids, the test USDT's address (the owner's first deployment on a new chain,
 * scripts/docker/chain-setup.ts), finality by confirmations (a local node's `finalized` is its latest
 * block), a 1 gwei tip (a local base fee falls to almost nothing), replacements after 30 s (npm start's).
 */
export const LOCAL_CHAIN_ENV: Readonly<Record<string, string>> = {
  CHAIN_RPC_URL_ETH: 'http://chain-eth:8545',
  CHAIN_RPC_URL_MATIC: 'http://chain-matic:8545',
  CHAIN_ID_ETH: '31337',
  CHAIN_ID_MATIC: '31338',
  USDT_CONTRACT_ETH: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  USDT_CONTRACT_MATIC: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  CHAIN_FINALITY_ETH: '2',
  CHAIN_FINALITY_MATIC: '2',
  CHAIN_MIN_PRIORITY_FEE_GWEI_ETH: '1',
  CHAIN_MIN_PRIORITY_FEE_GWEI_MATIC: '1',
  CHAIN_REPLACE_AFTER_MS_ETH: '30000',
  CHAIN_REPLACE_AFTER_MS_MATIC: '30000',
};

/**
 * Local chains: COMPOSE_FILE and LOCAL_CHAIN_ENV into the env file, the missing ones (a value already there
 * is kept). A variable of the environment that contradicts them would win over the file: refused.
 */
export function ensureLocalChainSettings(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const wanted: Record<string, string> = { COMPOSE_FILE: `docker-compose.yml:${LOCAL_CHAINS_FILE}`, ...LOCAL_CHAIN_ENV };
  const conflicting = Object.keys(LOCAL_CHAIN_ENV).filter((name) => env[name] && env[name] !== LOCAL_CHAIN_ENV[name]);
  if (conflicting.length > 0)
    throw new Error(
      `local chains, but the environment sets ${conflicting.map((name) => `${name}=${env[name]}`).join(', ')}: unset them, or leave out --local-chains`,
    );
  const stored = readEnvFile(settings.envFile);
  const missing = Object.keys(wanted).filter((name) => stored[name] === undefined);
  if (missing.length > 0)
    appendToEnvFile(settings, [
      `# Local test chains (npm run compose:up -- --local-chains; ${LOCAL_CHAINS_FILE}): never real money.`,
      ...missing.map((name) => `${name}=${wanted[name]}`),
    ]);
  return missing;
}

/** The local DICT test server's and notification sinks' settings (docker-compose.local-chains.yml), beside the chains'. */
export const LOCAL_COUNTERPARTY_ENV: Readonly<Record<string, string>> = {
  DICT_URL: 'https://dict-test:8443/api/v1',
  DICT_ISPB: STACK_OPERATOR_ISPB,
  OPERATOR_ISPB: STACK_OPERATOR_ISPB,
  SMTP_URL: 'smtp://notify-sinks:1025',
  SMTP_FROM: 'Cadastro de empresas <nao-responda@partner-service.localhost>',
  SMTP_REQUIRE_TLS: 'false',
  TWILIO_API_URL: 'http://notify-sinks:8025',
  TWILIO_ACCOUNT_SID: DEV_SINKS.accountSid,
  TWILIO_AUTH_TOKEN: DEV_SINKS.authToken,
  TWILIO_FROM: '+15005550006',
};

/** Where compose:up generates the test DICT's certificates: beside the env file, git-ignored (`.env.*`). */
export const generatedDictDir = (settings: ComposeSettings): string =>
  join(dirname(settings.envFile), `${basename(settings.envFile)}.dict`);

/**
 * Local counterparties: the test DICT's certificates generated (readable by the containers' uid) and the
 * settings of LOCAL_COUNTERPARTY_ENV written into the env file, the missing ones. Returns what it wrote.
 */
export async function ensureLocalCounterparties(settings: ComposeSettings): Promise<string[]> {
  const dir = generatedDictDir(settings);
  const pki = await ensureDictPki(dir);
  if (process.getuid?.() === 0) {
    chownSync(dir, CONTAINER_UID, CONTAINER_UID);
    for (const file of Object.values(pki)) if (file !== dir) chownSync(file, CONTAINER_UID, CONTAINER_UID);
  }
  const wanted: Record<string, string> = { ...LOCAL_COUNTERPARTY_ENV, DICT_CERTS_DIR: dir };
  const stored = readEnvFile(settings.envFile);
  const missing = Object.keys(wanted).filter((name) => stored[name] === undefined);
  if (missing.length > 0)
    appendToEnvFile(settings, [
      `# Local DICT test server and notification sinks (${LOCAL_CHAINS_FILE}): never real people.`,
      ...missing.map((name) => `${name}=${wanted[name]}`),
    ]);
  return missing;
}

/** The uid the images' `node` user has: it reads the bind-mounted secret (outside swarm, the host file's mode applies). */
const CONTAINER_UID = 1000;

/** Where compose:up generates the hot wallet key: beside the env file, git-ignored (`.env.*`) and out of the image build (.dockerignore). */
export const generatedKeyFile = (settings: ComposeSettings): string =>
  join(dirname(settings.envFile), `${basename(settings.envFile)}.hot_wallet_key`);

export interface HotWallet {
  /** The host file bind-mounted as the secret, or /dev/null with a remote signer. */
  file: string;
  address?: Address;
  generated: boolean;
}

/**
 * The hot wallet key file (HOT_WALLET_KEY_SECRET_FILE from the environment or the env file), checked: it
 * holds a key and uid 1000 may read it. When none is named: a remote signer gets /dev/null (the file is
 * not read); key-file signing gets a new key, generated into generatedKeyFile() and named in the env file.
 * Never prints the key.
 */
export function ensureHotWalletKey(settings: ComposeSettings, env: NodeJS.ProcessEnv = process.env): HotWallet {
  const stored = readEnvFile(settings.envFile);
  const signer = env.HOT_WALLET_SIGNER || stored.HOT_WALLET_SIGNER || 'key-file';
  const named = env.HOT_WALLET_KEY_SECRET_FILE || stored.HOT_WALLET_KEY_SECRET_FILE;
  if (!named && signer === 'remote') {
    appendToEnvFile(settings, [
      '# The remote signer holds the hot wallet key: the secret file is not read.',
      'HOT_WALLET_KEY_SECRET_FILE=/dev/null',
    ]);
    return { file: '/dev/null', generated: false };
  }
  if (named && signer === 'remote') return { file: named, generated: false };
  const file = named ? resolve(root, named) : generatedKeyFile(settings);
  let generated = false;
  if (!named) {
    if (!existsSync(file)) {
      writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600, flag: 'wx' });
      generated = true;
    }
    if (process.getuid?.() === 0) chownSync(file, CONTAINER_UID, CONTAINER_UID);
    const shown = relative(root, file);
    appendToEnvFile(settings, [
      '# The hot wallet key (the Compose secret hot_wallet_key): a file, never a variable. Back it up.',
      `HOT_WALLET_KEY_SECRET_FILE=${shown.startsWith('..') || isAbsolute(shown) ? file : `./${shown}`}`,
    ]);
  }
  if (!existsSync(file)) throw new Error(`HOT_WALLET_KEY_SECRET_FILE ${named} does not exist`);
  const key = readFileSync(file, 'utf8').trim();
  // The message names the file, never what is in it.
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new Error(`HOT_WALLET_KEY_SECRET_FILE ${file} does not hold a private key (0x + 64 hex digits)`);
  const stat = statSync(file);
  const readable =
    stat.uid === CONTAINER_UID
      ? (stat.mode & 0o400) !== 0
      : (stat.mode & 0o004) !== 0 || (stat.gid === CONTAINER_UID && (stat.mode & 0o040) !== 0);
  if (!readable)
    throw new Error(
      `HOT_WALLET_KEY_SECRET_FILE ${file}: the withdrawals container reads it as uid ${CONTAINER_UID} (its \`node\` user; outside swarm a secret is a bind mount with the host file's owner and mode): chown ${CONTAINER_UID} ${file} (and keep it mode 600)`,
    );
  return { file, address: privateKeyToAccount(key as Hex).address, generated };
}

/** Runs Compose on this project (its files, its env file, its name). */
export function compose(settings: ComposeSettings, args: string[], env: NodeJS.ProcessEnv = process.env): ReturnType<typeof run> {
  const [command, ...prefix] = composeCommand();
  return run(command, [...prefix, ...composeArgs(settings), ...args], { cwd: root, env });
}

function composeVisible(what: string, settings: ComposeSettings, args: string[], env: NodeJS.ProcessEnv): void {
  const [command, ...prefix] = composeCommand();
  runVisible(what, command, [...prefix, ...composeArgs(settings), ...args], { cwd: root, env });
}

const composeArgs = (settings: ComposeSettings): string[] => [
  '-f',
  join(root, 'docker-compose.yml'),
  ...(settings.localChains ? ['-f', join(root, LOCAL_CHAINS_FILE)] : []),
  '--project-directory',
  root,
  '-p',
  settings.project,
  ...(existsSync(settings.envFile) ? ['--env-file', settings.envFile] : []),
];

/** A container of the project: its service, state and health (none when it has no health check). */
interface ContainerState {
  service: string;
  name: string;
  status: string;
  health: string;
  exitCode: number;
}

export function containersOf(project: string, all = true): ContainerState[] {
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
const ONE_SHOT = new Set(['migrate', 'topics', 'chain-setup']);

/** Waits until every long-running container is healthy and every one-shot step has exited 0. */
export async function waitUntilReady(settings: ComposeSettings, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
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
    last = waiting.map((c) => `${c.service} ${c.health || c.status}`).join(', ') || 'no container yet';
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

export async function composeUp(settings: ComposeSettings = composeSettings()): Promise<{ publicUrl: string; operatorUrl: string }> {
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
  const generated = ensureSecrets(settings);
  const envFile = relative(root, settings.envFile) || settings.envFile;
  if (generated.length > 0) console.log(`secrets: generated ${generated.join(', ')} into ${envFile} (mode 600)`);
  const chainSettings = settings.localChains ? ensureLocalChainSettings(settings) : [];
  if (chainSettings.length > 0) console.log(`local chains: wrote ${chainSettings.join(', ')} into ${envFile}`);
  const counterparties = settings.localChains ? await ensureLocalCounterparties(settings) : [];
  if (counterparties.length > 0) console.log(`local DICT and notification sinks: wrote ${counterparties.join(', ')} into ${envFile}`);
  const wallet = ensureHotWalletKey(settings);
  if (wallet.generated)
    console.log(
      `hot wallet: generated a new key into ${relative(root, wallet.file) || wallet.file} (mode 600, owner uid ${CONTAINER_UID}); ` +
        `address ${wallet.address}${settings.localChains ? ' (chain-setup funds it on the local chains)' : ': fund it on both networks, and back the file up'}`,
    );
  const env = composeEnv(settings);

  await ensureBaseImages(imageNames(env));
  const building = Date.now();
  composeVisible('building the images', settings, ['build'], env);
  console.log(`images built in ${seconds(building)}`);

  const starting = Date.now();
  composeVisible('starting the stack', settings, ['up', '-d', '--remove-orphans'], env);
  await waitUntilReady(settings, Number(process.env.COMPOSE_READY_TIMEOUT_S ?? 420) * 1000);
  const publicUrl = `http://localhost:${settings.gatewayPort}`;
  const operatorUrl = `http://127.0.0.1:${settings.operatorPort}`;
  console.log(`
  Ready in ${seconds(starting)} (${seconds(started)} with the images), project ${settings.project}, ${settings.sandbox ? 'sandbox (SANDBOX=true)' : 'production mode (SANDBOX=false)'}
  Partner API:   ${publicUrl}/partner/v1   (reference: ${publicUrl}/docs)
  Operator API:  ${operatorUrl}/admin/v1   this host only; X-Admin-Key: ADMIN_API_KEY ${process.env.ADMIN_API_KEY ? 'of your environment' : `in ${envFile}`}
  Internal:      ${operatorUrl}/readyz and ${operatorUrl}/metrics
  Chains:        ${
    settings.localChains
      ? `local test chains (never real money): ETH http://127.0.0.1:${settings.chainPorts.ETH} (chain ${LOCAL_CHAIN_ENV.CHAIN_ID_ETH}), MATIC http://127.0.0.1:${settings.chainPorts.MATIC} (chain ${LOCAL_CHAIN_ENV.CHAIN_ID_MATIC}), USDT ${LOCAL_CHAIN_ENV.USDT_CONTRACT_ETH}`
      : 'the nodes of CHAIN_RPC_URL_ETH and CHAIN_RPC_URL_MATIC'
  }
  Hot wallet:    ${wallet.address ? `${wallet.address} (key: ${relative(root, wallet.file) || wallet.file})` : 'the remote signer (REMOTE_SIGNER_ADDRESS)'}
  Try:  curl -s -X POST ${operatorUrl}/admin/v1/partners -H "X-Admin-Key: $ADMIN_API_KEY" -H 'Content-Type: application/json' -d '{"name":"acme"}'
  Stop: npm run compose:down   (removes containers, networks and volumes; keeps ${envFile})
`);
  return { publicUrl, operatorUrl };
}

export function composeDown(settings: ComposeSettings = composeSettings(), forgetSecrets = false): void {
  const problem = engineProblem();
  if (problem) throw new Error(`no Docker engine answers (${problem})`);
  // `down` needs no secret, but Compose interpolates the whole file first: stand-ins for the missing ones.
  const stored = readEnvFile(settings.envFile);
  const paths = ['HOT_WALLET_KEY_SECRET_FILE', 'DICT_CERTS_DIR'];
  const placeholders = Object.fromEntries(
    [...SECRET_VARIABLES, ...CHAIN_URL_VARIABLES, ...paths, ...Object.keys(LOCAL_COUNTERPARTY_ENV)]
      .filter((name) => !process.env[name] && !stored[name])
      .map((name) => [name, paths.includes(name) ? '/dev/null' : 'unused-by-down']),
  );
  // With the local chains' file whatever the stack ran with, so that their containers go too.
  composeVisible(
    'removing the stack',
    { ...settings, localChains: true },
    ['--profile', 'tools', 'down', '--volumes', '--remove-orphans'],
    {
      ...composeEnv(settings),
      ...placeholders,
    },
  );
  if (forgetSecrets) {
    // A generated hot wallet key goes too only when it paid on local chains; else it may control funds: kept
    // (and reused by the next compose:up).
    const keyFile = generatedKeyFile(settings);
    const localKey = (stored.COMPOSE_FILE ?? '').includes(LOCAL_CHAINS_FILE);
    for (const file of [settings.envFile, ...(localKey ? [keyFile] : [])].filter((f) => existsSync(f))) {
      rmSync(file);
      console.log(`removed ${relative(root, file) || file}`);
    }
    if (!localKey && existsSync(keyFile))
      console.log(`kept ${relative(root, keyFile) || keyFile}: the hot wallet key (its funds); remove it yourself`);
  }
}

if (require.main === module) {
  const [command, ...rest] = process.argv.slice(2).filter((a) => a !== '--');
  const main = async (): Promise<void> => {
    if (command === 'up')
      await composeUp(composeSettings(rest.includes('--local-chains') ? { ...process.env, COMPOSE_LOCAL_CHAINS: 'true' } : process.env));
    else if (command === 'down') composeDown(composeSettings(), rest.includes('--forget-secrets'));
    else throw new Error('usage: tsx scripts/docker/compose.ts up [--local-chains] | down [--forget-secrets]');
  };
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
