import { callGateway, ChaosPartner } from './partner-load';

const USDT = 1_000_000;

/**
 * The withdrawal risk controls the chaos run turns on for its partners (issue #50): limits, so that every
 * withdrawal is created by the path that locks the account and reads the windows (set above what the load's
 * balances allow: a daily limit the users reached in seconds would stop the payouts the faults need under
 * way), and an approval threshold the load's 4-USDT withdrawals pass, so that a quarter wait for the operator
 * (ChaosApprover decides them). Screening is always on.
 */
export const CHAOS_LIMITS = {
  per_withdrawal_usdt_micros: 4 * USDT,
  daily_usdt_micros: 1_000_000 * USDT,
  monthly_usdt_micros: 10_000_000 * USDT,
  approval_threshold_usdt_micros: 3 * USDT + USDT / 2,
};

export async function applyRiskControls(operatorUrl: string, adminKey: string, partners: ChaosPartner[]): Promise<void> {
  for (const p of partners) {
    const set = await callGateway(operatorUrl, 'PUT', `/admin/v1/partners/${p.id}/limits`, { 'x-admin-key': adminKey }, CHAOS_LIMITS);
    if (set.status !== 200) throw new Error(`limits of partner ${p.id}: ${set.status} ${JSON.stringify(set.body)}`);
  }
}

/** What the approver decided, by decision. */
export interface ApproverTally {
  approved: number;
  rejected: number;
}

/**
 * The operator of the chaos run: every second it lists the approvals waiting and decides those of its partners'
 * withdrawals, rejecting one in five (so both paths run under the faults), approving the rest. A call that
 * fails (a gateway restarting) is tried again at the next turn, on the next operator port.
 */
export class ChaosApprover {
  readonly tally: ApproverTally = { approved: 0, rejected: 0 };
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly partnerIds: Set<string>;

  constructor(
    private readonly operatorUrls: string[],
    private readonly adminKey: string,
    partners: ChaosPartner[],
  ) {
    this.partnerIds = new Set(partners.map((p) => p.id));
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.decidePending().then(() => undefined));
    }, 1000);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Decides until none of its partners' approvals waits (the load stopped), by `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    this.stop();
    await this.running;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) if ((await this.decidePending()) === 0) return;
    throw new Error(`approvals of the chaos partners still waiting after ${timeoutMs} ms`);
  }

  /** One turn: the pending approvals of its partners decided; how many were pending (-1: the list failed). */
  private async decidePending(): Promise<number> {
    const url = this.operatorUrls[this.turn++ % this.operatorUrls.length];
    const headers = { 'x-admin-key': this.adminKey };
    const listed = await callGateway(url, 'GET', '/admin/v1/approvals?status=pending_approval&limit=200', headers);
    if (listed.status !== 200) return -1;
    const approvals = (listed.body?.approvals ?? []) as { id: string; kind: string; partner_id: string; withdrawal_id: number | null }[];
    const mine = approvals.filter((a) => a.kind === 'usdt_withdrawal' && this.partnerIds.has(a.partner_id));
    for (const a of mine) {
      const decision = (a.withdrawal_id ?? 0) % 5 === 0 ? 'reject' : 'approve';
      const decided = await callGateway(url, 'POST', `/admin/v1/approvals/${a.id}`, headers, { decision, note: 'chaos operator' });
      if (decided.status === 200) this.tally[decision === 'reject' ? 'rejected' : 'approved']++;
    }
    return mine.length;
  }
}
