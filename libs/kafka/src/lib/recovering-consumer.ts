import { Logger } from '@nestjs/common';
import { GroupConsumer } from './kafka-port';
import { ConsumerGroups } from './consumer-groups';

export interface RecoveringConsumerOptions {
  groupId: string;
  /** Where membership is reported (the process's readiness reads it). */
  groups: ConsumerGroups;
  /** Makes a new consumer (the first one, and one after each crash its client does not restart). */
  create: () => GroupConsumer;
  /** Connects, subscribes and runs `consumer`; rejects when it could not (the next attempt follows the backoff). */
  run: (consumer: GroupConsumer) => Promise<void>;
  /** The consumer is dead and will not be used again: forget what belongs to it (progress, positions). */
  retire?: (consumer: GroupConsumer) => void;
  /**
   * How long the consumer may stay out of its group (crashed, re-creating, disconnected) before
   * `onStuck` is called; 0 never calls it. ADR 0015: the process then leaves so that its supervisor
   * starts a fresh one.
   */
  maxOutOfGroupMs: number;
  onStuck?: (groupId: string, outForMs: number) => void;
}

/** Re-creation backoff: 1 s, 2 s, 4 s... up to 15 s. */
export const recreateBackoffMs = (attempt: number) => Math.min(15_000, 1_000 * 2 ** Math.min(attempt - 1, 4));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A consumer that does not die silently (ADR 0015). kafkajs restarts a consumer by itself after a
 * retriable crash, but not after a non-retriable one (e.g. `KafkaJSNonRetriableError: Failed to find group
 * coordinator` after a broker restart): the consumer is then disconnected for good while the process
 * lives on (@platformatic/kafka restarts none: platformatic-client.ts). Here such a crash makes a NEW consumer of the same group, with backoff, which re-joins and
 * resumes from the group's committed offsets (what the dead one had not committed is delivered again:
 * at least once, as after any crash). Membership is reported into `groups` at every step, so readiness
 * turns down at the crash; and if the group is not joined again within `maxOutOfGroupMs`, `onStuck` says so.
 */
export class RecoveringConsumer {
  private readonly logger = new Logger(RecoveringConsumer.name);
  private current?: GroupConsumer;
  private stopping = false;
  private recreating = false;
  private outSince?: number;
  private stuckTimer?: NodeJS.Timeout;
  /** How many consumers were made after the first one (each a recovery from a crash). */
  recreations = 0;

  constructor(private readonly options: RecoveringConsumerOptions) {}

  /** The live consumer; undefined between a crash and its replacement. */
  get consumer(): GroupConsumer | undefined {
    return this.current;
  }

  /** Starts the first consumer; rejects (and stops) when that fails, as a start-up step should. */
  async start(): Promise<void> {
    try {
      await this.launch();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops the live consumer and makes no new one. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.stuckTimer);
    await this.current?.stop().catch(() => undefined);
  }

  async disconnect(): Promise<void> {
    await this.stop();
    await this.current?.disconnect().catch(() => undefined);
  }

  private async launch(): Promise<void> {
    const consumer = this.options.create();
    this.current = consumer;
    this.watch(consumer);
    this.out('joining');
    await this.options.run(consumer);
  }

  private watch(consumer: GroupConsumer): void {
    const { groupId } = this.options;
    const mine = () => this.current === consumer;
    const live = () => mine() && !this.stopping;
    consumer.on('joined', () => {
      if (!live()) return;
      clearTimeout(this.stuckTimer);
      this.outSince = undefined;
      this.options.groups.report(groupId, true, `member of ${groupId}`);
    });
    consumer.on('crashed', (error, restarting) => {
      if (!live()) return;
      if (restarting) {
        this.out(`crashed (${error.message}), restarting`);
        return;
      }
      // Its client has given it up and will not restart it: it is dead.
      this.logger.error(
        `Consumer of ${groupId} crashed and its client will not restart it (${error.name}: ${error.message}); making a new one`,
      );
      this.out(`crashed (${error.message}), re-creating`);
      this.retire(consumer);
      void this.recreate();
    });
    consumer.on('stopped', () => mine() && this.out('stopped'));
    consumer.on('disconnected', () => mine() && this.out('disconnected'));
  }

  private retire(consumer: GroupConsumer): void {
    if (this.current === consumer) this.current = undefined;
    this.options.retire?.(consumer);
  }

  /** Makes new consumers until one runs (a crash while it starts makes `current` undefined again). */
  private async recreate(): Promise<void> {
    if (this.recreating) return;
    this.recreating = true;
    try {
      for (let attempt = 1; !this.stopping && !this.current; attempt++) {
        await sleep(recreateBackoffMs(attempt));
        if (this.stopping) return;
        this.recreations++;
        try {
          await this.launch();
          this.logger.warn(
            `Consumer of ${this.options.groupId} re-created (attempt ${attempt}); it re-joins from the group's committed offsets`,
          );
        } catch (error) {
          this.logger.warn(`Consumer of ${this.options.groupId} could not be re-created (attempt ${attempt}): ${(error as Error).message}`);
          const failed = this.consumer;
          if (failed) {
            this.retire(failed);
            await failed.disconnect().catch(() => undefined);
          }
        }
      }
    } finally {
      this.recreating = false;
    }
  }

  /** Not a member (any more): readiness turns down now; the out-of-group clock starts if it is not running. */
  private out(detail: string): void {
    const { groupId, groups, maxOutOfGroupMs, onStuck } = this.options;
    groups.report(groupId, false, detail);
    if (this.outSince !== undefined || this.stopping) return;
    this.outSince = Date.now();
    if (maxOutOfGroupMs > 0 && onStuck) {
      this.stuckTimer = setTimeout(() => {
        // The timer fired after the bound on the event loop's clock, which may run a millisecond behind Date.now.
        if (!this.stopping && this.outSince !== undefined) onStuck(groupId, Math.max(maxOutOfGroupMs, Date.now() - this.outSince));
      }, maxOutOfGroupMs);
      this.stuckTimer.unref();
    }
  }
}

/**
 * The default answer to a consumer stuck out of its group (ADR 0015): say so in one clear line, then
 * stop the process gracefully (SIGTERM to itself: Nest's shutdown hooks run, handlers in flight finish,
 * finished offsets are committed) and, should that hang, exit anyway; the supervisor starts a new one.
 */
export function leaveProcess(groupId: string, outForMs: number): void {
  new Logger('ConsumerWatchdog').fatal(
    `Consumer of group ${groupId} has been out of its group for ${Math.round(outForMs / 1000)} s (KAFKA_MAX_OUT_OF_GROUP_MS); exiting so that the supervisor restarts this process`,
  );
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 15_000).unref();
  process.kill(process.pid, 'SIGTERM');
}
