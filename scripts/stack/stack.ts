/**
 * The whole stack on this machine: the broker (offline/kafka/kafka.sh), the database (created, migrated) and
 * the six apps as supervised child processes. `npm start`, `npm test`, the bench and chaos differ only in
 * ports, database and timings.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { BUS_ADMIN, BUS_SASL_MECHANISM } from '../../libs/contracts/src/lib/services.catalogue';
import { APP_MALLOC_ENV, appNodeFlags, APPS, AppName, healthPortOf, pgSchemaOf, repoRoot, waitGone } from '../lib/services';

export interface StackOptions {
  kafkaPort: number;
  databaseUrl: string;
  gatewayPort: number;
  /** Services' health ports are healthPortBase+1.. */
  healthPortBase: number;
  /** Extra environment for every app (timings, log level...). */
  env?: Record<string, string>;
  /** Where app logs go; undefined means this terminal. */
  logDir?: string;
  /** Each app connects as its own role (svc_<schema>, made by `migrate(url, roles)`); undefined: as the owner. */
  dbRoles?: DbRoles;
  /** Where the apps' dist/ and node_modules are: the repository, or npm test's runtime tree (scripts/lib/runtime-tree.ts). */
  appRoot?: string;
  /** Without logDir: the apps' JSON lines made readable in this one process (not a pino-pretty worker per app). */
  prettyLogs?: boolean;
  /** A folder for the apps' V8 code cache (NODE_COMPILE_CACHE): npm start only; the others run the apps as deployed. */
  compileCache?: string;
}

/** A password per app for its database role. */
export type DbRoles = Record<AppName, string>;

/** Fresh random passwords for every app's database role. */
export function serviceRoles(): DbRoles {
  return Object.fromEntries(APPS.map((app) => [app, randomBytes(18).toString('base64url')])) as DbRoles;
}

/** `databaseUrl` with the app's own role and password (docs/operations.md: "Database roles"). */
function roleUrl(databaseUrl: string, app: AppName, roles: DbRoles): string {
  const url = new URL(databaseUrl);
  url.username = `svc_${pgSchemaOf(app)}`;
  url.password = roles[app];
  return url.toString();
}

const root = repoRoot();

export function kafka(command: 'start' | 'stop', port: number): void {
  if (command === 'start') ensureBusCredentials(port);
  execFileSync('bash', [join(root, 'offline/kafka/kafka.sh'), command], { stdio: 'inherit', env: kafkaEnv(port) });
}

/** `kafka()` without blocking this process meanwhile (it keeps reading the apps' log pipes). */
export function kafkaInBackground(command: 'start' | 'stop', port: number): Promise<void> {
  if (command === 'start') ensureBusCredentials(port);
  return runInBackground('bash', [join(root, 'offline/kafka/kafka.sh'), command], kafkaEnv(port));
}

/** Runs a command to its end, its output on this terminal, without blocking this process meanwhile; fails on a non-zero exit. */
export function runInBackground(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const child = spawn(command, args, { stdio: 'inherit', env, cwd: root });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${relative(root, args[0] ?? command)} ${args.slice(1).join(' ')} exited with ${code}`)),
    );
  });
}

// Authentication on (kafka.sh): the admin's password file; the apps' are beside it.
const kafkaEnv = (port: number): NodeJS.ProcessEnv => ({
  ...process.env,
  KAFKA_PORT: String(port),
  KAFKA_ADMIN_PASSWORD_FILE: busPasswordFile(port, BUS_ADMIN),
});

/** The data folder offline/kafka/kafka.sh uses for a broker on `port` (its default, or KAFKA_DATA_DIR / KAFKA_CACHE_DIR). */
const kafkaDataDir = (port: number) =>
  process.env.KAFKA_DATA_DIR ?? join(process.env.KAFKA_CACHE_DIR ?? join(root, '.cache', 'kafka'), `data-${port}`);

/** The password file of a principal (`admin` or an app) of the broker on `port`: in its data folder, mode 600. */
export const busPasswordFile = (port: number, principal: string): string => join(kafkaDataDir(port), 'credentials', principal);

/** The environment of a process of ours that uses the broker on `port` as its super user (the specs, the tools). */
export const busAdminEnv = (port: number): Record<string, string> => ({
  KAFKA_SASL_MECHANISM: BUS_SASL_MECHANISM,
  KAFKA_SASL_USERNAME: BUS_ADMIN,
  KAFKA_SASL_PASSWORD_FILE: busPasswordFile(port, BUS_ADMIN),
});

/** The SASL settings of a principal of the broker on `port`, for a client of this process. */
export const busSasl = (port: number, principal: string): { mechanism: typeof BUS_SASL_MECHANISM; username: string; password: string } => ({
  mechanism: BUS_SASL_MECHANISM,
  username: principal,
  password: readFileSync(busPasswordFile(port, principal), 'utf8').trim(),
});

/**
 * Draws the passwords of the broker on `port` that are missing (the admin's goes into its storage when it is
 * formatted; the apps' into the SCRAM credentials `setUpBus` sets). A broker formatted before its clients
 * authenticated has no admin: it starts again empty (npm start's topics and offsets are a development's).
 */
function ensureBusCredentials(port: number): void {
  const data = kafkaDataDir(port);
  if (existsSync(join(data, 'kraft-logs', 'meta.properties')) && !existsSync(busPasswordFile(port, BUS_ADMIN))) {
    console.warn(`[kafka:${port}] the broker's data predates authentication on the bus: it starts again empty (${data})`);
    execFileSync('bash', [join(root, 'offline/kafka/kafka.sh'), 'stop'], {
      stdio: 'inherit',
      env: { ...process.env, KAFKA_PORT: String(port) },
    });
    rmSync(data, { recursive: true, force: true });
  }
  mkdirSync(join(data, 'credentials'), { recursive: true, mode: 0o700 });
  for (const principal of [BUS_ADMIN, ...APPS]) {
    const file = busPasswordFile(port, principal);
    if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
}

/**
 * Whether this checkout's broker on `port` runs and is ready, as kafka.sh's probe checks it without a JVM
 * (3 s of CPU): its pid file names our `kafka.Kafka`, and it lists itself in the metadata (once unfenced).
 */
export async function kafkaIsReady(port: number): Promise<boolean> {
  const dataDir = kafkaDataDir(port);
  try {
    const pid = readFileSync(join(dataDir, 'kafka.pid'), 'utf8').trim();
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!cmdline.includes('kafka.Kafka') || !cmdline.includes(join(dataDir, 'server.properties'))) return false;
  } catch {
    return false;
  }
  const { Kafka, logLevel } = require('kafkajs') as typeof import('kafkajs');
  const admin = new Kafka({
    clientId: 'stack-probe',
    brokers: [`127.0.0.1:${port}`],
    sasl: busSasl(port, BUS_ADMIN),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    const { brokers } = await admin.describeCluster();
    return brokers.some((broker) => broker.nodeId === 1); // kafka.sh's node.id
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** The broker on `port` started unless it already runs and is ready; says which. */
export async function ensureKafka(port: number): Promise<'already running' | 'started'> {
  if (await kafkaIsReady(port)) return 'already running';
  await kafkaInBackground('start', port);
  return 'started';
}

/** A broker of its own for a run (npm test, chaos), emptied first: no offsets or topics of an earlier run. */
export function freshKafka(port: number): void {
  try {
    kafka('stop', port);
  } catch {
    // not running
  }
  rmSync(kafkaDataDir(port), { recursive: true, force: true });
  kafka('start', port);
}

/** Drops and creates the database of `databaseUrl` (tests and the bench start from nothing), through `postgres`. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Applies every service's migrations (`appRoot`'s: another checkout's); with `roles`, also creates or updates each app's database role. */
export function migrate(databaseUrl: string, roles?: DbRoles, appRoot = root): void {
  const passwords = Object.fromEntries(
    Object.entries(roles ?? {}).map(([app, pw]) => [`DB_PASSWORD_${pgSchemaOf(app as AppName).toUpperCase()}`, pw]),
  );
  execFileSync(join(root, 'node_modules/.bin/tsx'), [join(appRoot, 'scripts/db/migrate.ts')], {
    stdio: 'inherit',
    cwd: appRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...passwords },
  });
}

/**
 * What the test and chaos stacks share: the sandbox, quick simulated Pix inflows, and rate limits far above
 * any load (a suite that tests one sets its own) but through the shared store, which a database outage hits.
 */
export const TEST_STACK_ENV: Record<string, string> = {
  SANDBOX: 'true',
  PIX_IN_STEP_DELAY_MS: '200',
  PIX_IN_TICK_MS: '50',
  REQUEST_TIMEOUT_MS: '8000',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  ADMIN_RATE_LIMIT_PER_SECOND: '100000',
  ADMIN_RATE_LIMIT_BURST: '100000',
  RATE_LIMIT_STORE: 'postgres',
  // The SMS quota far above any load too (create-business-customer.use-case.int.spec.ts tests it).
  NOTIFY_SMS_PER_PARTNER_PER_DAY: '10000000',
  // The specs play the proxy: a client's address is the X-Forwarded-For they send (auth-flood.spec.ts).
  TRUST_PROXY_HOPS: '1',
};

/** The apps' internal-request secret (ADR 0017): INTERNAL_SECRET, else one per process (a restarted app gets the same). */
export const INTERNAL_SECRET = process.env.INTERNAL_SECRET || randomBytes(32).toString('hex');

export function appEnv(app: AppName, o: StackOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...APP_MALLOC_ENV,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    INTERNAL_SECRET,
    KAFKA_BROKERS: `127.0.0.1:${o.kafkaPort}`,
    // Each app as its own principal, its topics made by setUpBus beforehand (docs/adr/0032-authenticated-bus.md).
    KAFKA_SASL_MECHANISM: BUS_SASL_MECHANISM,
    KAFKA_SASL_USERNAME: app,
    KAFKA_SASL_PASSWORD: '',
    KAFKA_SASL_PASSWORD_FILE: busPasswordFile(o.kafkaPort, app),
    KAFKA_CREATE_TOPICS: 'false',
    DATABASE_URL: o.dbRoles ? roleUrl(o.databaseUrl, app, o.dbRoles) : o.databaseUrl,
    PORT: String(o.gatewayPort),
    HEALTH_PORT: String(healthPortOf(app, o.healthPortBase)),
    // The operator port, as deployed (docs/operations/observability.md).
    ADMIN_PORT: String(healthPortOf('gateway', o.healthPortBase)),
    // Direct queries and direct replies (docs/architecture.md).
    ...(app === 'gateway'
      ? {
          EVENTS_QUERY_URL: `http://127.0.0.1:${healthPortOf('events', o.healthPortBase)}`,
          INFLOWS_QUERY_URL: `http://127.0.0.1:${healthPortOf('inflows', o.healthPortBase)}`,
          DIRECT_REPLIES: 'true',
        }
      : {}),
    ...o.env,
  };
}

/** How an app of a running stack is started again: its options and its log's name. */
interface Relaunch {
  options: StackOptions;
  logName: (app: AppName) => string;
}

/** The supervisor's backoff: 1 s, 2 s, 4 s... up to 30 s; back to 1 s once an app stayed up a minute. */
const restartDelayMs = (restarts: number) => Math.min(30_000, 1_000 * 2 ** Math.min(restarts, 5));

/** A terminal's signals to the whole group (Ctrl-C, a closed terminal): an app ended by one is never started again. */
const TERMINAL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGHUP'];

export class RunningStack {
  private stopping?: Promise<void>;
  /** Processes whose exit was asked for (a stop, a fault injected): the supervisor leaves them alone. */
  private readonly expectedExits = new WeakSet<ChildProcess>();
  private relaunch?: Relaunch;

  /** `adminUrl`: the gateway's operator port, where its operator API, /readyz and /metrics answer (ADMIN_PORT; the API URL without one). */
  constructor(
    readonly processes: Map<AppName, ChildProcess>,
    readonly gatewayUrl: string,
    readonly adminUrl: string = gatewayUrl,
  ) {}

  /** Whether an app that exits is started again (then a dead process is not a start-up failure). */
  get supervised(): boolean {
    return this.relaunch !== undefined;
  }

  /** The supervisor (ADR 0015): an app that exits unasked is started again after a backoff, with a line saying so. */
  supervise(options: StackOptions, logName: (app: AppName) => string = (app) => app): void {
    this.relaunch = { options, logName };
    for (const [app, p] of this.processes) this.watch(app, p, 0);
  }

  /** `child` runs `app` from now on (a restart); supervised like the first one. */
  replace(app: AppName, child: ChildProcess): void {
    this.processes.set(app, child);
    if (this.relaunch) this.watch(app, child, 0);
  }

  /** The exit of `p` is asked for (kill -9 of a fault injection): not a crash to restart. */
  expectExit(p: ChildProcess): void {
    this.expectedExits.add(p);
  }

  private watch(app: AppName, p: ChildProcess, restarts: number): void {
    const started = Date.now();
    p.once('exit', (code, signal) => {
      const relaunch = this.relaunch;
      if (this.stopping || !relaunch || this.expectedExits.has(p) || this.processes.get(app) !== p) return;
      // The group's Ctrl-C reached the app before this process's own handler ran: the stack is stopping.
      if (signal && TERMINAL_SIGNALS.includes(signal)) {
        console.error(`[supervisor] ${app} stopped by ${signal}: not started again`);
        return;
      }
      const previous = Date.now() - started > 60_000 ? 0 : restarts;
      const delay = restartDelayMs(previous);
      console.error(`[supervisor] ${app} exited unexpectedly (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`);
      setTimeout(() => {
        if (this.stopping || this.processes.get(app) !== p) return;
        const child = startApp(app, relaunch.options, relaunch.logName(app));
        this.processes.set(app, child);
        this.watch(app, child, previous + 1);
      }, delay);
    });
  }

  /**
   * SIGTERM, SIGKILL after a deadline; the gateway first, so no request reaches a stopping service. Marked at
   * once (before any await): the supervisor restarts nothing from the call on; a second call waits for the first.
   */
  stop(deadlineMs = 10_000): Promise<void> {
    this.stopping ??= (async () => {
      const gateway = this.processes.get('gateway');
      if (gateway) await stopProcess(gateway, deadlineMs);
      await Promise.all([...this.processes.values()].map((p) => stopProcess(p, deadlineMs)));
    })();
    return this.stopping;
  }
}

export function stopProcess(p: ChildProcess, deadlineMs: number): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => p.kill('SIGKILL'), deadlineMs);
    p.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    p.kill('SIGTERM');
  });
}

/** pino-pretty's formatting of one line, as LOG_PRETTY=true formats it (a line that is not JSON passes as it is). */
let prettyLine: ((line: string) => string) | undefined;

/** Starts one app from the build output; its log (with logDir) is `<logName>.log`, the app's name by default. */
export function startApp(app: AppName, o: StackOptions, logName: string = app): ChildProcess {
  const appRoot = o.appRoot ?? root;
  const pretty = o.prettyLogs && !o.logDir;
  const child = spawn(process.execPath, [...appNodeFlags(app), join(appRoot, 'dist/apps', app, 'src/main.js')], {
    cwd: appRoot,
    env: {
      ...appEnv(app, o),
      ...(pretty ? { LOG_PRETTY: 'false' } : {}),
      // Node's own V8 code cache (module.enableCompileCache): each file's compiled code kept between starts.
      ...(o.compileCache ? { NODE_COMPILE_CACHE: o.compileCache } : {}),
    },
    stdio: o.logDir ? ['ignore', 'pipe', 'pipe'] : ['ignore', pretty ? 'pipe' : 'inherit', 'inherit'],
  });
  if (pretty && child.stdout) {
    // Whole lines only, each written at once (stdout is synchronous on a terminal or a pipe): the apps' lines never mix.
    prettyLine ??= (require('pino-pretty') as { prettyFactory(o: object): (line: string) => string }).prettyFactory({ singleLine: true });
    const line = prettyLine;
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (text) => process.stdout.write(line(text)));
  }
  if (o.logDir) {
    mkdirSync(o.logDir, { recursive: true });
    const log = createWriteStream(join(o.logDir, `${logName}.log`), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  return child;
}

/** How long a started stack may take to be ready: 120 s, or STACK_READY_TIMEOUT_MS on a machine under heavy load. */
const READY_TIMEOUT_MS = Number(process.env.STACK_READY_TIMEOUT_MS ?? 120_000);

/**
 * Starts every app and waits until the gateway answers ready. `instance` > 0: another instance of every app
 * beside a running stack (same broker, database and consumer groups), ports + 10 × instance, logs `<app>-<instance>.log`.
 */
export async function startApps(o: StackOptions, instance = 0, track?: (stack: RunningStack) => void): Promise<RunningStack> {
  const at = instance === 0 ? o : { ...o, gatewayPort: o.gatewayPort + 10 * instance, healthPortBase: o.healthPortBase + 10 * instance };
  // The bus's deploy step first, as Compose's kafka-setup runs before the apps: loaded here only (npm start's first lines load no Kafka client).
  if (instance === 0) await (require('./bus') as typeof import('./bus')).setUpLocalBus(o);
  const logName = (app: AppName) => (instance === 0 ? app : `${app}-${instance}`);
  const processes = new Map<AppName, ChildProcess>(APPS.map((app) => [app, startApp(app, at, logName(app))]));
  const stack = new RunningStack(
    processes,
    `http://127.0.0.1:${at.gatewayPort}`,
    `http://127.0.0.1:${healthPortOf('gateway', at.healthPortBase)}`,
  );
  // Known before it is ready: a Ctrl-C meanwhile stops these apps too.
  track?.(stack);
  await readyOrStopped([stack]);
  stack.supervise(at, logName);
  return stack;
}

/** Waits until every one of `stacks` is ready; stops them all when one is not. */
async function readyOrStopped(stacks: RunningStack[]): Promise<void> {
  try {
    await Promise.all(stacks.map((stack) => waitUntilReady(stack, READY_TIMEOUT_MS)));
  } catch (error) {
    await Promise.all(stacks.map((stack) => stack.stop()));
    throw error;
  }
}

/** More (stateless) gateway instances in front of a running stack's services, `env` on top; ready once each /readyz is 200. */
export async function startGatewayInstances(
  o: StackOptions,
  at: Array<{ port: number; adminPort: number }>,
  env: Record<string, string>,
): Promise<RunningStack[]> {
  const instances = at.map(({ port, adminPort }) => {
    const options = { ...o, gatewayPort: port, env: { ...o.env, ADMIN_PORT: String(adminPort), ...env } };
    const gateway = startApp('gateway', options, `gateway-${port}`);
    return new RunningStack(new Map([['gateway', gateway]]), `http://127.0.0.1:${port}`, `http://127.0.0.1:${adminPort}`);
  });
  await readyOrStopped(instances);
  return instances;
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Polls the gateway's /readyz (broker, database and every service) until it answers 200 or the deadline passes. */
export async function waitUntilReady(stack: RunningStack, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < until) {
    // A supervised stack starts a dead app again: only an unsupervised one fails here.
    for (const [app, p] of stack.processes) {
      if (p.exitCode !== null && !stack.supervised) throw new Error(`${app} exited with code ${p.exitCode} during start-up`);
    }
    try {
      const res = await fetch(`${stack.adminUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`stack not ready after ${deadlineMs} ms: ${last}`);
}

/** Fault injection (npm run chaos): kill -9 one app, no shutdown hooks, as a crash or an OOM kill would. */
export async function killApp(stack: RunningStack, app: AppName): Promise<void> {
  const p = stack.processes.get(app);
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  stack.expectExit(p); // restartApp starts it again, not the supervisor
  await new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

/** A planned stop of one app (a rolling restart's step): SIGTERM, its graceful shutdown, SIGKILL only after `deadlineMs`. */
export async function stopApp(stack: RunningStack, app: AppName, deadlineMs = 30_000): Promise<void> {
  const p = stack.processes.get(app);
  if (!p) return;
  stack.expectExit(p); // restartApp starts it again, not the supervisor (else two would run)
  await stopProcess(p, deadlineMs);
}

/** Starts `app` again in place of its dead process and waits until the whole stack answers ready. */
export async function restartApp(stack: RunningStack, app: AppName, o: StackOptions, deadlineMs = 120_000): Promise<void> {
  stack.replace(app, startApp(app, o));
  await waitUntilReady(stack, deadlineMs);
}

/** Starts the broker again after a stop or a kill (fault injection) and waits until the whole stack answers ready. */
export async function restartKafka(stack: RunningStack, o: StackOptions, deadlineMs = 120_000): Promise<void> {
  await kafkaInBackground('start', o.kafkaPort);
  await waitUntilReady(stack, deadlineMs);
}

/** kill -9 of the broker (the pid file kafka.sh writes); `kafka('start', port)` brings it back. */
export async function killKafka(port: number): Promise<void> {
  const pid = Number(readFileSync(join(kafkaDataDir(port), 'kafka.pid'), 'utf8').trim());
  process.kill(pid, 'SIGKILL');
  if (!(await waitGone(pid, 30_000))) throw new Error(`broker pid ${pid} still present 30 s after kill -9`);
}
