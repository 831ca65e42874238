/**
 * Starts and stops the whole stack on this machine: the Kafka broker (offline/kafka/kafka.sh), the
 * database (created and migrated), and the six apps as child processes. Shared by `npm start`,
 * `npm test` and `npm run bench`, which differ only in ports, database and timings.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { APP_MALLOC_ENV, appNodeFlags, APPS, AppName, healthPortOf, pgSchemaOf, repoRoot } from '../lib/services';

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
  /**
   * Each app's own database role (svc_<schema>, password by app), as created by `migrate(url, roles)`:
   * the app connects as it and may use its own schema only. Undefined: every app connects as the owner.
   */
  dbRoles?: DbRoles;
  /** Where the apps' dist/ and node_modules are: the repository by default; npm test runs them from the runtime tree (scripts/lib/runtime-tree.ts). */
  appRoot?: string;
  /**
   * Without logDir: the apps' JSON lines made readable here, in this one process, as LOG_PRETTY=true
   * would in each app (a pino-pretty worker thread per app: about a tenth of an app's start-up CPU).
   */
  prettyLogs?: boolean;
  /** A folder for the apps' V8 code cache (Node's NODE_COMPILE_CACHE): npm start only; the others run the apps as deployed. */
  compileCache?: string;
}

/** A password per app for its database role (`serviceRoles()` makes fresh ones). */
export type DbRoles = Record<AppName, string>;

/** A fresh random password for every app's database role. */
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

export function kafka(command: 'start' | 'stop' | 'status', port: number): void {
  execFileSync('bash', [join(root, 'offline/kafka/kafka.sh'), command], { stdio: 'inherit', env: kafkaEnv(port) });
}

/** `kafka()` without blocking this process meanwhile (it keeps reading the apps' log pipes). */
export function kafkaInBackground(command: 'start' | 'stop', port: number): Promise<void> {
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

const kafkaEnv = (port: number): NodeJS.ProcessEnv => ({ ...process.env, KAFKA_PORT: String(port) });

/** The data folder offline/kafka/kafka.sh uses for a broker on `port` (its default, or KAFKA_DATA_DIR / KAFKA_CACHE_DIR). */
const kafkaDataDir = (port: number) =>
  process.env.KAFKA_DATA_DIR ?? join(process.env.KAFKA_CACHE_DIR ?? join(root, '.cache', 'kafka'), `data-${port}`);

/**
 * Whether this checkout's broker on `port` runs and is ready, checked as kafka.sh's probe checks it but
 * without starting a JVM (about 3 s of CPU on these machines): the process its pid file names is our
 * broker (`kafka.Kafka` with that data folder's config), it answers on its port and lists itself as a
 * broker in the metadata, which it does only once its controller has unfenced it.
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
  // Loaded here: the apps' client, only for the processes that probe.
  const { Kafka, logLevel } = require('kafkajs') as typeof import('kafkajs');
  const admin = new Kafka({
    clientId: 'stack-probe',
    brokers: [`127.0.0.1:${port}`],
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

/**
 * Drops and creates the database of `databaseUrl` (tests and the bench start from nothing). The admin
 * connection goes to the `postgres` database of the same server.
 */
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

/** Applies every service's migrations; with `roles`, also creates or updates each app's database role. */
export function migrate(databaseUrl: string, roles?: DbRoles): void {
  const passwords = Object.fromEntries(
    Object.entries(roles ?? {}).map(([app, pw]) => [`DB_PASSWORD_${pgSchemaOf(app as AppName).toUpperCase()}`, pw]),
  );
  execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/db/migrate.ts')], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: databaseUrl, ...passwords },
  });
}

/**
 * The secret every app of the stacks this process starts signs and checks internal requests with
 * (docs/adr/0017-internal-trust.md): INTERNAL_SECRET when set, else one made for this process, so that a
 * restarted app gets the same one as the others.
 */
export const INTERNAL_SECRET = process.env.INTERNAL_SECRET || randomBytes(32).toString('hex');

export function appEnv(app: AppName, o: StackOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...APP_MALLOC_ENV,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    INTERNAL_SECRET,
    KAFKA_BROKERS: `127.0.0.1:${o.kafkaPort}`,
    DATABASE_URL: o.dbRoles ? roleUrl(o.databaseUrl, app, o.dbRoles) : o.databaseUrl,
    PORT: String(o.gatewayPort),
    HEALTH_PORT: String(healthPortOf(app, o.healthPortBase)),
    // The gateway's operator API, /readyz and /metrics on its operator port, as deployed (docs/operations/observability.md: "Health, readiness and the admin port").
    ADMIN_PORT: String(healthPortOf('gateway', o.healthPortBase)),
    // The gateway reads the feed and the Pix-in list straight from their services (docs/architecture.md: "Direct queries"),
    // and has its replies sent straight to it (docs/architecture.md: "Direct replies"), on a free port of its own.
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

/** Restart backoff of the supervisor: 1 s, 2 s, 4 s... up to 30 s; back to 1 s once an app stayed up a minute. */
const restartDelayMs = (restarts: number) => Math.min(30_000, 1_000 * 2 ** Math.min(restarts, 5));

/** Signals a terminal sends the whole process group (Ctrl-C, a closed terminal): an app ended by one is never started again. */
const TERMINAL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGHUP'];

export class RunningStack {
  private stopping?: Promise<void>;
  /** Processes whose exit was asked for (a stop, a fault injected): the supervisor leaves them alone. */
  private readonly expectedExits = new WeakSet<ChildProcess>();
  private relaunch?: Relaunch;
  /** Every exit nobody asked for, and the restart the supervisor made of it. */
  readonly unexpectedExits: Array<{ app: AppName; code: number | null; signal: NodeJS.Signals | null; at: Date }> = [];

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

  /**
   * The stack's supervisor (ADR 0015): an app that exits without being asked to (a crash, or a service
   * leaving because a consumer could not get back into its group) is started again after a backoff, with
   * a line saying so. `npm start`, `npm test` and `npm run chaos` all run their apps under it.
   */
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
      this.unexpectedExits.push({ app, code, signal, at: new Date() });
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
   * Stops the apps: SIGTERM for a graceful shutdown, SIGKILL after a deadline. The gateway goes first,
   * so no new request reaches a service that is already stopping. The supervisor restarts nothing from
   * the call on (it is marked at once, before any await); a second call waits for the first.
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

let prettifier: ((line: string) => string) | undefined;
/** pino-pretty's formatting of one line, as the apps' own LOG_PRETTY=true formats it (a line that is not JSON passes as it is). */
function prettyLine(): (line: string) => string {
  prettifier ??= (require('pino-pretty') as { prettyFactory(options: object): (line: string) => string }).prettyFactory({
    singleLine: true,
  });
  return prettifier;
}

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
    const line = prettyLine();
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

/**
 * Starts every app and waits until the gateway answers ready. `instance` > 0 starts another instance of
 * every app beside a running stack, as a deployment scales out: the same broker, database and consumer
 * groups (the services share their partitions with the first instances), its gateway on `gatewayPort +
 * 10 × instance` and its ports from `healthPortBase + 10 × instance`, logs in `<app>-<instance>.log`.
 */
/** How long a started stack may take to be ready: 120 s, or STACK_READY_TIMEOUT_MS on a machine under heavy load. */
const READY_TIMEOUT_MS = Number(process.env.STACK_READY_TIMEOUT_MS ?? 120_000);

export async function startApps(o: StackOptions, instance = 0, track?: (stack: RunningStack) => void): Promise<RunningStack> {
  const at = instance === 0 ? o : { ...o, gatewayPort: o.gatewayPort + 10 * instance, healthPortBase: o.healthPortBase + 10 * instance };
  const processes = new Map<AppName, ChildProcess>();
  for (const app of APPS) processes.set(app, startApp(app, at, instance === 0 ? app : `${app}-${instance}`));
  const stack = new RunningStack(
    processes,
    `http://127.0.0.1:${at.gatewayPort}`,
    `http://127.0.0.1:${healthPortOf('gateway', at.healthPortBase)}`,
  );
  // Known before it is ready: a Ctrl-C meanwhile stops these apps too.
  track?.(stack);
  try {
    await waitUntilReady(stack, READY_TIMEOUT_MS);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  // From now on an app that exits unexpectedly is started again (ADR 0015).
  stack.supervise(at, (app) => (instance === 0 ? app : `${app}-${instance}`));
  return stack;
}

/**
 * More gateway instances in front of a running stack's services (the gateway is stateless: each instance
 * has its own reply topic and key cache), each on its `port` and operator port `adminPort`, with `env` on
 * top of the stack's (e.g. SANDBOX=false). Answers once each one's /readyz is 200; logs go to `gateway-<port>.log`.
 */
export async function startGatewayInstances(
  o: StackOptions,
  at: Array<{ port: number; adminPort: number }>,
  env: Record<string, string>,
): Promise<RunningStack[]> {
  const instances = at.map(
    ({ port, adminPort }) =>
      new RunningStack(
        new Map([
          [
            'gateway',
            startApp('gateway', { ...o, gatewayPort: port, env: { ...o.env, ADMIN_PORT: String(adminPort), ...env } }, `gateway-${port}`),
          ],
        ]),
        `http://127.0.0.1:${port}`,
        `http://127.0.0.1:${adminPort}`,
      ),
  );
  try {
    await Promise.all(instances.map((instance) => waitUntilReady(instance, Number(process.env.STACK_READY_TIMEOUT_MS ?? 120_000))));
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    throw error;
  }
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

/** kill -9 of the broker (its pid file is written by offline/kafka/kafka.sh); `kafka('start', port)` brings it back. */
export async function killKafka(port: number): Promise<void> {
  const pidFile = join(root, '.cache', 'kafka', `data-${port}`, 'kafka.pid');
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`broker pid ${pid} still present 30 s after kill -9`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
