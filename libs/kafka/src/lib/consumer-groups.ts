/**
 * Whether this process's consumers are members of their groups right now, for readiness: a service whose
 * consumer has crashed or left its group answers no commands, however healthy its database. KafkaServer
 * reports into it; the service's /readyz reads it.
 */
export class ConsumerGroups {
  private readonly groups = new Map<string, { joined: boolean; detail: string }>();
  /** Why this process consumes no topic at all (a worker: bootstrapService's `worker`); it is then ready without groups. */
  private consumesNothing: string | undefined;

  /** This process runs no consumer, by design: readiness does not wait for a group. */
  none(why: string): void {
    this.consumesNothing = why;
  }

  report(group: string, joined: boolean, detail: string): void {
    this.groups.set(group, { joined, detail });
  }

  /** Every group and its state; empty until the consumers have started (or for good, in a process that consumes nothing). */
  snapshot(): Record<string, { joined: boolean; detail: string }> {
    return Object.fromEntries(this.groups);
  }

  /** Why this process consumes nothing, when it is such a worker. */
  noConsumers(): string | undefined {
    return this.consumesNothing;
  }

  /** True once at least one consumer started and every one of them is in its group; always, in a process that consumes nothing. */
  ready(): boolean {
    if (this.consumesNothing !== undefined) return true;
    return this.groups.size > 0 && [...this.groups.values()].every((g) => g.joined);
  }
}
