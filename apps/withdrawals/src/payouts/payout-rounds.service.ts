import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Network, NETWORKS } from '@partner/contracts';
import { PeriodicJobService } from '@partner/runtime';
import { redactSecrets } from '@partner/tracing';
import { WithdrawalsConfig } from '../config/withdrawals.config';
import { HotWalletRepository } from '../hot-wallets/hot-wallet.repository';
import { isTransportFailure } from '../hot-wallets/evm-payout-rail';
import { GuardWalletNonceUseCase } from './guard-wallet-nonce.use-case';
import { PayoutMetrics } from './payout-metrics';
import { PayoutRoundLeaseRepository } from './payout-round-lease.repository';
import { networkSettings, NetworkSettings } from '../hot-wallets/payout-settings';
import { HOT_WALLET_POOL, HotWalletPool } from '../hot-wallets/hot-wallet-pool';
import { PAYOUT_RAILS, PayoutRails } from '../hot-wallets/payout-rail';
import { LaneWait, SignPayoutsUseCase } from './sign-payouts.use-case';
import { TrackPayoutsUseCase } from './track-payouts.use-case';

const LANE_WAITS: readonly LaneWait[] = ['stopped', 'token_refuses_wallet', 'gas_short', 'usdt_short', 'in_flight_cap'];

/** A start-up check failed on something the operator configured: the service does not start. */
export class ChainMismatchError extends Error {}
/** A node that answers but must not be trusted now (syncing, or behind): its network's round waits. */
export class NodeUnfitError extends Error {}

/**
 * The payout rounds: every CHAIN_POLL_MS, for each network at once, check that its node still serves the
 * configured chain, follow what is signed, then sign what can be paid and broadcast it. A node down,
 * slow or wrong pauses its network only, with a warning when it starts and a line when it is back;
 * withdrawals wait meanwhile and go on after. One instance at a time runs a network's round (a lease row,
 * PayoutRoundLeaseRepository); the signing itself is also serialised by the wallet's row lock.
 */
@Injectable()
export class PayoutRoundsService extends PeriodicJobService implements OnModuleInit {
  private readonly logger = new Logger('payouts');
  private readonly settings: Record<Network, NetworkSettings>;
  /** Networks whose node was checked (chain id, token decimals, genesis): rounds run on these only. */
  private readonly verified = new Set<Network>();
  /** Why each network is paused now (to log a change once, not every round). */
  private readonly paused = new Map<Network, string>();
  private readonly crashRate: number;

  constructor(
    private readonly config: WithdrawalsConfig,
    private readonly leases: PayoutRoundLeaseRepository,
    private readonly hotWallets: HotWalletRepository,
    private readonly sign: SignPayoutsUseCase,
    private readonly track: TrackPayoutsUseCase,
    private readonly guard: GuardWalletNonceUseCase,
    private readonly payoutMetrics: PayoutMetrics,
    @Inject(PAYOUT_RAILS) private readonly rails: PayoutRails,
    @Inject(HOT_WALLET_POOL) private readonly pool: HotWalletPool,
  ) {
    // A round every CHAIN_POLL_MS from start to start: a lane at its in-flight cap is refilled once a block
    // mines, and a round's length grows with the lanes (a fixed pause after each
    // round would slow the pool down as its rounds lengthen).
    super({ name: 'payouts', intervalMs: config.CHAIN_POLL_MS, fixedRate: true, run: (signal) => this.runOnce(signal) });
    this.settings = networkSettings(config);
    this.crashRate = Number(config.PAYOUT_CRASH_AFTER_SIGN_RATE ?? 0);
  }

  /**
   * At start: each node that answers must serve the configured chain, with a 6-decimal token, and the
   * same chain this database paid on; otherwise the service refuses to start, naming the setting. A node
   * that does not answer yet is checked again before its first round (withdrawals wait meanwhile).
   */
  async onModuleInit(): Promise<void> {
    await this.checkChains();
  }

  /** The start-up check (onModuleInit); exposed for specs. */
  async checkChains(): Promise<void> {
    if (this.crashRate > 0 && this.config.NODE_ENV === 'production')
      throw new ChainMismatchError('PAYOUT_CRASH_AFTER_SIGN_RATE is a test hook and is refused with NODE_ENV=production');
    if (!this.config.PAYOUTS_ENABLED) return;
    await Promise.all(
      NETWORKS.map(async (n) => {
        try {
          await this.verify(n);
        } catch (error) {
          if (error instanceof ChainMismatchError) throw error;
          this.pause(n, `its node at ${this.settings[n].names.rpcUrl} does not answer (${brief(error)})`);
        }
      }),
    );
  }

  override onApplicationBootstrap(): void {
    if (this.config.PAYOUTS_ENABLED) super.onApplicationBootstrap();
  }

  private async verify(network: Network): Promise<void> {
    const s = this.settings[network];
    const rail = this.rails[network];
    const chainId = await rail.chainId();
    if (chainId !== s.chainId)
      throw new ChainMismatchError(`${s.names.chainId} is ${s.chainId} but the node at ${s.names.rpcUrl} serves chain ${chainId}`);
    let decimals: number;
    try {
      decimals = await rail.tokenDecimals();
    } catch (error) {
      // A node that did not answer says nothing of the contract: the network waits, the service starts.
      if (isTransportFailure(error)) throw error;
      throw new ChainMismatchError(
        `${s.names.token} ${s.token} answers no decimals() on chain ${chainId}: is it the USDT contract? (${brief(error)})`,
      );
    }
    if (decimals !== 6) throw new ChainMismatchError(`${s.names.token} ${s.token} has ${decimals} decimals; USDT has 6`);
    const genesis = await rail.genesisHash();
    // Every wallet of the pool gets its lane on the network (a wallet added to the configuration starts at
    // the chain's count of its transactions).
    for (const { address } of this.pool.wallets) {
      const wallet = await this.hotWallets.register(
        network,
        address,
        chainId,
        genesis,
        await rail.minedNonce(address),
        await rail.latestBlock(),
      );
      if (wallet.genesisHash !== genesis || wallet.chainId !== chainId)
        throw new ChainMismatchError(
          `the node at ${s.names.rpcUrl} serves another chain (genesis ${genesis}) than the one this database paid on (genesis ${wallet.genesisHash}); a local node that restarted forgets its chain: see docs/operations/payouts.md, "Local chains"`,
        );
    }
    this.verified.add(network);
  }

  /**
   * One round of every network now (the periodic job's run; specs call it directly). A round that signed
   * a full batch with more waiting asks for the next round at once: a backlog is worked off back to back,
   * not one CHAIN_BATCH per CHAIN_POLL_MS. Once `stopping` is aborted (the process shuts down) the round
   * ends after the step under way: each step commits on its own, as it must for a crash, so what is left
   * is the next round's, in this process or the one that takes over.
   */
  async runOnce(stopping?: AbortSignal): Promise<void> {
    const more = await Promise.all(NETWORKS.map((n) => this.round(n, stopping)));
    if (more.some(Boolean) && !stopping?.aborted) this.runAgainNow();
  }

  /** One network's round (whether more is waiting to be signed); never throws (a failure pauses that network until a round succeeds). */
  private async round(network: Network, stopping?: AbortSignal): Promise<boolean> {
    try {
      // One instance per network at a time; another instance's round is under way: nothing to do.
      const round = await this.leases.whileHeld(network, () => this.roundHeld(network, stopping));
      return round.ran && round.value;
    } catch (error) {
      const reason = error instanceof ChainMismatchError ? 'wrong_chain' : error instanceof NodeUnfitError ? 'unfit' : 'unavailable';
      this.payoutMetrics.rpcFailures.inc({ network, reason });
      this.pause(network, reason === 'unavailable' ? `its node or the database failed: ${brief(error)}` : (error as Error).message);
      return false;
    }
  }

  private async roundHeld(network: Network, stopping?: AbortSignal): Promise<boolean> {
    const s = this.settings[network];
    if (!this.verified.has(network)) await this.verify(network);
    // A node that now serves another chain (a misrouted URL, a failover to the wrong network) pauses payouts.
    const chainId = await this.rails[network].chainId();
    if (chainId !== s.chainId) {
      this.verified.delete(network);
      throw new ChainMismatchError(`the node at ${s.names.rpcUrl} now serves chain ${chainId}, not ${s.names.chainId}=${s.chainId}`);
    }
    // A syncing or lagging node would tell an old chain as the truth: not asked until it has caught up.
    const unfit = await this.rails[network].health(new Date());
    if (unfit) throw new NodeUnfitError(unfit);
    // What is in flight first, lane by lane (stored bytes broadcast, receipts, settlements), so that a
    // backlog of new withdrawals to sign never delays them; every lane the books know, a wallet retired or
    // dropped from the configuration included (followed to the end of what it signed).
    const known = (await this.hotWallets.list()).filter((w) => w.network === network).map((w) => w.address);
    await Promise.all(known.map((address) => this.track.execute(s, this.track.lane(address), { stopping })));
    if (stopping?.aborted) return false;
    // A transaction mined from a wallet that the books never signed stops that lane until resolved.
    for (const { address } of this.pool.signing) await this.guard.execute(network, address);
    this.payoutMetrics.waiting.set({ network, reason: 'node' }, 0);
    if (stopping?.aborted) return false;
    const { signed, lanes, more } = await this.sign.execute(s);
    for (const reason of LANE_WAITS) this.payoutMetrics.waiting.set({ network, reason }, lanes.filter((l) => l.wait === reason).length);
    if (signed.length > 0 && this.crashRate > 0 && Math.random() < this.crashRate) {
      // The chaos run's hook: die between the commit of signed transactions and their broadcast.
      this.logger.warn('PAYOUT_CRASH_AFTER_SIGN_RATE: killing this process after signing, before broadcasting');
      process.kill(process.pid, 'SIGKILL');
    }
    // Stopping: what was just signed is stored, and the next round broadcasts stored bytes first.
    if (stopping?.aborted) return false;
    await this.track.broadcast(
      s,
      signed.map(({ withdrawal, version }) => ({ w: withdrawal, v: version })),
      { stopping },
    );
    const idle = lanes.filter((l) => l.wait !== null && l.wait !== 'in_flight_cap');
    this.resume(
      network,
      lanes.length > 0 && idle.length === lanes.length
        ? `every hot wallet waits (${[...new Set(idle.map((l) => l.wait))].join(', ')})`
        : undefined,
    );
    return more === true;
  }

  private pause(network: Network, why: string): void {
    this.payoutMetrics.waiting.set({ network, reason: 'node' }, 1);
    if (this.paused.get(network) === why) return;
    this.paused.set(network, why);
    this.logger.warn(`payouts on ${network} wait: ${why}`);
  }

  /** The network's round went through; `why` it still waits, if it does. */
  private resume(network: Network, why?: string): void {
    const was = this.paused.get(network);
    if (was === why) return;
    if (why) {
      this.paused.set(network, why);
      this.logger.warn(`payouts on ${network} wait: ${why}`);
    } else {
      this.paused.delete(network);
      this.logger.log(`payouts on ${network} go on`);
    }
  }
}

/** The first line of an error's message, without the secrets of a node's URL (a provider's key may sit in its path or query). */
function brief(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactSecrets(text.split('\n')[0] ?? '').slice(0, 300);
}
