/**
 * Ctrl-C stops `npm start`, under load too (docs/development.md, "The local stack"): a real `npm start` in a
 * group of its own on spare ports (CTRL_C_PORT_BASE, 22000) with a broker, database and chains of its own,
 * partner traffic, then SIGINT to the group while its start process is held off the processor. Nothing of
 * the group may remain, its ports must be free, its shutdown must have run to the end, no app restarted.
 * The broker and the chains outlive a Ctrl-C by design; they are stopped at the end.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pollUntil } from '@partner/testing';
import { chaosPartners, PartnerLoad } from '@partner/chaos';
import { stopLocalChains } from '../chain/local-chains';
import { databaseName, withDatabase } from '../../offline/prisma/schema-engine';
import { APPS, healthPortOf, repoRoot, TEST_DATABASE_URL } from '../lib/services';
import { killKafka, listening, recreateDatabase } from './stack';

jest.setTimeout(15 * 60_000);

const root = repoRoot();
const base = Number(process.env.CTRL_C_PORT_BASE ?? 22000);
const ports = {
  gateway: base,
  healthBase: base + 100,
  dict: base + 443,
  smtpSink: base + 25,
  notifySink: base + 80,
  kafka: base + 92,
  chains: { ETH: base + 545, MATIC: base + 546 },
};
/** What npm start itself listens on (its apps, the DICT test server, the sinks): free again once it stopped. */
const stackPorts = [ports.gateway, ...APPS.map((app) => healthPortOf(app, ports.healthBase)), ports.dict, ports.smtpSink, ports.notifySink];
const databaseUrl = withDatabase(TEST_DATABASE_URL, `${databaseName(TEST_DATABASE_URL)}_ctrl_c`);
const adminKey = `adm_ctrl_c_${'x'.repeat(24)}`;
const keyDir = mkdtempSync(join(tmpdir(), 'ctrl-c-spec-'));
/** Two Ctrl-Cs: the first start brings up the broker and the chains, the second finds them running. */
const RUNS = Number(process.env.CTRL_C_RUNS ?? 2);

const env: NodeJS.ProcessEnv = {
  // Only what a terminal has: Jest's own variables (NODE_ENV=test, the test stack's URLs) stay out.
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  HOME: process.env.HOME,
  KAFKA_PORT: String(ports.kafka),
  DATABASE_URL: databaseUrl,
  // The roles are the server's, shared by every database: npm test's stack keeps its passwords.
  DB_ROLES: 'false',
  PORT: String(ports.gateway),
  HEALTH_PORT_BASE: String(ports.healthBase),
  DICT_TEST_PORT: String(ports.dict),
  SMTP_SINK_PORT: String(ports.smtpSink),
  NOTIFY_SINK_PORT: String(ports.notifySink),
  CHAIN_PORT_ETH: String(ports.chains.ETH),
  CHAIN_PORT_MATIC: String(ports.chains.MATIC),
  HOT_WALLET_KEY_FILE: join(keyDir, 'hot-wallet.key'),
  ADMIN_API_KEY: adminKey,
  LOG_PRETTY: 'true',
};

/** The processes of the group `pgid`, with their parents and command lines. */
function groupMembers(pgid: number): Array<{ pid: number; ppid: number; cmdline: string }> {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 160);
        return Number(stat[2]) === pgid ? [{ pid: Number(pid), ppid: Number(stat[1]), cmdline }] : [];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** The process running start.ts in the group `pgid`: the deepest of those whose command line names it (a wrapper may run it). */
function startProcess(pgid: number): number {
  const procs = groupMembers(pgid).filter((p) => p.cmdline.includes('scripts/stack/start.ts'));
  const deepest = procs.find((p) => !procs.some((child) => child.ppid === p.pid));
  if (!deepest) throw new Error(`no start.ts process in group ${pgid}`);
  return deepest.pid;
}

interface Started {
  child: ChildProcess;
  output: string[];
}

/** `npm start` as a terminal runs it, in a group of its own; resolves once it printed that it is ready. */
async function npmStart(): Promise<Started> {
  const child = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  await new Promise<void>((ready, fail) => {
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        output.push(line);
        if (line.includes('Partner API ready')) ready();
      });
    child.once('exit', (code, signal) =>
      fail(new Error(`npm start exited (${signal ?? code}) before it was ready:\n${output.slice(-40).join('\n')}`)),
    );
  });
  return { child, output };
}

beforeAll(async () => {
  await recreateDatabase(databaseUrl);
});

afterAll(async () => {
  // A broker of this spec's alone, thrown away: no graceful stop needed.
  await killKafka(ports.kafka).catch(() => undefined);
  rmSync(join(root, '.cache', 'kafka', `data-${ports.kafka}`), { recursive: true, force: true });
  await stopLocalChains(ports.chains);
  rmSync(keyDir, { recursive: true, force: true });
});

describe('Ctrl-C on npm start', () => {
  for (let run = 1; run <= RUNS; run++) {
    it(`stops every process of its group and frees its ports, under load (start ${run} of ${RUNS})`, async () => {
      expect((await Promise.all(stackPorts.map(listening))).some(Boolean)).toBe(false);
      const { child, output } = await npmStart();
      const pgid = child.pid ?? 0;
      expect(pgid).toBeGreaterThan(0);
      let load: PartnerLoad | undefined;
      try {
        const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
        const partners = await chaosPartners(gatewayUrl, adminKey, 2);
        load = new PartnerLoad(gatewayUrl, partners, adminKey, {
          rate: 60,
          maxInFlight: 64,
          operatorUrls: [`http://127.0.0.1:${healthPortOf('gateway', ports.healthBase)}`],
        });
        load.start();
        // The stack is busy: answers are coming back (not a fixed pause).
        await load.progress(150, 120_000);
        const interruptedAt = output.length;
        // Ctrl-C while the start process gets no processor time for 200 ms, as on a loaded machine: whatever
        // waits for it meanwhile (a wrapper relaying the signal) must not give up on it.
        const start = startProcess(pgid);
        process.kill(start, 'SIGSTOP');
        process.kill(-pgid, 'SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 200));
        try {
          process.kill(start, 'SIGCONT');
        } catch {
          // gone: killed while held (the assertions below say what was left)
        }

        await pollUntil(
          'no process left in the group of npm start',
          async () => groupMembers(pgid),
          (left) => left.length === 0,
          { timeoutMs: 90_000, intervalMs: 200 },
        );
        const busy = (await Promise.all(stackPorts.map(async (port) => ((await listening(port)) ? port : undefined)))).filter(Boolean);
        expect(busy).toEqual([]);
        const after = output.slice(interruptedAt);
        expect(after.filter((line) => line.includes('starting it again'))).toEqual([]);
        // Its own shutdown ran to the end (not cut short by a SIGKILL or a crash); else its last lines say why.
        const stopped = after.some((line) => line.startsWith('stop: the apps, DICT and the sinks stopped'));
        expect(stopped ? 'stopped' : after.slice(-60).join('\n')).toBe('stopped');
        // The broker and the chains are not of the group: they keep serving for the next start.
        expect(await listening(ports.kafka)).toBe(true);
        expect(await listening(ports.chains.MATIC)).toBe(true);
      } finally {
        await load?.stop();
        if (groupMembers(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
      }
    });
  }
});
