/**
 * Whether this process's consumers are members of their groups right now, for readiness: a service whose
 * consumer has crashed or left its group answers no commands, however healthy its database. KafkaServer
 * reports into it; the service's /readyz reads it.
 */
export class ConsumerGroups {
  private readonly groups = new Map<string, { joined: boolean; detail: string }>();

  report(group: string, joined: boolean, detail: string): void {
    this.groups.set(group, { joined, detail });
  }

  /** Every group and its state; empty until the consumers have started. */
  snapshot(): Record<string, { joined: boolean; detail: string }> {
    return Object.fromEntries(this.groups);
  }

  /** True once at least one consumer started and every one of them is in its group. */
  ready(): boolean {
    return this.groups.size > 0 && [...this.groups.values()].every((g) => g.joined);
  }
}
