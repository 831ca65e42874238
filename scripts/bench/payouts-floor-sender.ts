/**
 * One bare sender of `npm run bench:payouts`'s floor, in a process of its own (one per key: N senders are N
 * processes, as N wallets' worth of plain scripts would be, none waiting for another's CPU): signs its
 * transfers as the service would (the token's `transfer`, the service's gas limit and tip) at its own
 * consecutive nonces and pushes each once signed, or on its share of the `--rate` schedule. Driven over IPC
 * by `FloorSender`: set up (nonce, fee) and say ready, send when told to go, answer the times and hashes.
 */
import { ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Address, createPublicClient, encodeFunctionData, Hex, http, keccak256, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface SenderJob {
  key: Hex;
  count: number;
  /** Transfers a second of this sender (0: each pushed as soon as the one before was accepted). */
  rate: number;
  rpcUrl: string;
  chainId: number;
  token: Address;
  to: Address;
  amountMicros: string;
  gasLimit: string;
  priorityFeeWei: string;
  /** Transactions of this sender unmined at most (public nodes keep a handful per sender; the service keeps CHAIN_MAX_IN_FLIGHT_PER_WALLET). */
  maxInFlight: number;
}

/** What a sender did: wall-clock ms (the parent's clock: same machine) of each transfer asked and pushed, its hash; its own CPU ms. */
export interface SenderResult {
  asked: number[];
  submitted: number[];
  hashes: Hex[];
  cpuMs: number;
}

type ToSender = { type: 'job'; job: SenderJob } | { type: 'go' };
type FromSender = { type: 'ready' } | { type: 'done'; result: SenderResult } | { type: 'error'; message: string };

const nowMs = () => performance.timeOrigin + performance.now();
const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 value)']);

/** The parent's handle on one sender process. */
export class FloorSender {
  private constructor(private readonly child: ChildProcess) {}

  /** Starts the process and hands it its job; resolves once it has its nonce and fee and waits for `go`. */
  static async start(job: SenderJob, cwd: string): Promise<FloorSender> {
    const child = fork(__filename, [], { cwd, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const sender = new FloorSender(child);
    const ready = sender.next();
    child.send({ type: 'job', job } satisfies ToSender);
    await ready;
    return sender;
  }

  /** Sends its transfers now; resolves with what it did once every one was pushed. */
  async go(): Promise<SenderResult> {
    const done = this.next();
    this.child.send({ type: 'go' } satisfies ToSender);
    const m = await done;
    if (m.type !== 'done') throw new Error(`floor sender: ${JSON.stringify(m)}`);
    return m.result;
  }

  stop(): void {
    if (this.child.connected) this.child.disconnect();
  }

  private next(): Promise<FromSender> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`floor sender exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (m: FromSender) => {
        this.child.off('exit', onExit);
        if (m.type === 'error') reject(new Error(`floor sender: ${m.message}`));
        else resolve(m);
      });
    });
  }
}

/** The child's side. */
function serveParent(): void {
  const send = (m: FromSender) => process.send?.(m);
  let run: (() => Promise<SenderResult>) | undefined;
  process.on('message', (m: ToSender) => {
    if (m.type === 'job')
      prepare(m.job).then(
        (r) => {
          run = r;
          send({ type: 'ready' });
        },
        (error: Error) => send({ type: 'error', message: error.message }),
      );
    else if (run)
      run().then(
        (result) => send({ type: 'done', result }),
        (error: Error) => send({ type: 'error', message: error.message }),
      );
    else send({ type: 'error', message: 'go before the job was ready' });
  });
  process.on('disconnect', () => process.exit(0));
}

/** Reads the wallet's next nonce and the fee once; answers the run that sends every transfer. */
async function prepare(job: SenderJob): Promise<() => Promise<SenderResult>> {
  const client = createPublicClient({ transport: http(job.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
  const account = privateKeyToAccount(job.key);
  const baseNonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const priority = BigInt(job.priorityFeeWei);
  const maxFeePerGas = 2n * ((await client.getBlock({ blockTag: 'latest' })).baseFeePerGas ?? 0n) + priority;
  const data = encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [job.to, BigInt(job.amountMicros)] });
  const [asked, submitted, hashes] = [new Array<number>(job.count), new Array<number>(job.count), new Array<Hex>(job.count)];
  let mined = baseNonce;
  /** Waits (polling the node) until nonce `baseNonce + i` is within maxInFlight of the mined ones, as the service's lanes do. */
  const room = async (i: number) => {
    while (baseNonce + i - mined >= job.maxInFlight) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      mined = await client.getTransactionCount({ address: account.address, blockTag: 'latest' });
    }
  };
  const push = async (i: number, askedAt: number) => {
    asked[i] = askedAt;
    await room(i);
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: job.chainId,
      nonce: baseNonce + i,
      to: job.token,
      data,
      gas: BigInt(job.gasLimit),
      maxFeePerGas,
      maxPriorityFeePerGas: priority,
      value: 0n,
    });
    hashes[i] = keccak256(raw);
    await client.request({ method: 'eth_sendRawTransaction', params: [raw] });
    submitted[i] = nowMs();
  };
  return async () => {
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    if (job.rate > 0) {
      // On schedule whatever the answers (each keeps its scheduled time as asked), as the harness's onSchedule.
      const pending: Promise<void>[] = [];
      for (let i = 0; i < job.count; i++) {
        const due = t0 + (i * 1000) / job.rate;
        const wait = due - nowMs();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        pending.push(push(i, due));
      }
      await Promise.all(pending);
    } else for (let i = 0; i < job.count; i++) await push(i, t0);
    const cpu = process.cpuUsage(cpu0);
    return { asked, submitted, hashes, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

if (require.main === module) serveParent();
