/**
 * What a consumer may commit for one partition when its messages finish out of order: the offset after
 * the longest run of finished messages from the oldest one dispatched. A message that has not finished
 * (still running, or failed) holds the commit back, so after a crash Kafka delivers it again: at least
 * once, never "committed but not done".
 */
export class PartitionProgress {
  private readonly dispatched: number[] = [];
  private head = 0;
  private readonly done = new Set<number>();
  private highest = -1;
  private committable: number | undefined;
  private committed: number | undefined;

  /** True when this offset was already handed to a handler here (a refetch after a rebalance or a seek). */
  seen(offset: number): boolean {
    return offset <= this.highest;
  }

  start(offset: number): void {
    this.dispatched.push(offset);
    this.highest = offset;
  }

  finish(offset: number): void {
    this.done.add(offset);
    while (this.head < this.dispatched.length && this.done.has(this.dispatched[this.head])) {
      const finished = this.dispatched[this.head++];
      this.done.delete(finished);
      this.committable = finished + 1;
    }
    // Drop the consumed prefix now and then instead of shifting on every message.
    if (this.head > 1024 && this.head * 2 > this.dispatched.length) {
      this.dispatched.splice(0, this.head);
      this.head = 0;
    }
  }

  /** How many messages were dispatched and have not finished. */
  get pending(): number {
    return this.dispatched.length - this.head;
  }

  /** How many offsets it holds in memory, finished ones not yet dropped included: what must stay bounded over a long run. */
  get retained(): number {
    return this.dispatched.length;
  }

  /** The offset to commit (Kafka's "next message to read"), when it moved since the last commit. */
  takeCommit(): number | undefined {
    if (this.committable === undefined || this.committable === this.committed) return undefined;
    return this.committable;
  }

  markCommitted(offset: number): void {
    this.committed = offset;
  }
}
