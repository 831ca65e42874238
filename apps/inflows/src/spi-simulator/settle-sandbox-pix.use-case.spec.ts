import { Logger } from '@nestjs/common';
import { SimulatedPixInOutcome } from '@partner/contracts';
import { InflowsConfig } from '../config/inflows.config';
import { announcedPayment, InMemoryIngestion, sandboxPaymentOf, SPEC_ISPB } from './provider-ingestion.spec-support';
import { notificationOf, SandboxPayment } from './sandbox-notification';
import { SettleSandboxPixUseCase } from './settle-sandbox-pix.use-case';
import { DuePayment, SpiPaymentRepository } from './spi-payment.repository';

// Unit: the settlement's rounds over the provider's ingestion rules (in memory), with the payments log's
// due query as its statement reads it (status and updated_at of the recorded inflow). The PostgreSQL path:
// settle-sandbox-pix.use-case.int.spec.ts.
const STEP_MS = 1_000;
const config = { PIX_IN_STEP_DELAY_MS: STEP_MS, OPERATOR_ISPB: SPEC_ISPB } as InflowsConfig;

const payment = (outcome: SimulatedPixInOutcome): SandboxPayment => sandboxPaymentOf(announcedPayment({ outcome, amount_cents: 500 }));

/** The payments log over the in-memory inflows: DUE's rows (settling, waited since before `before`, oldest first, at most `limit`). */
function paymentsLog(ingestion: InMemoryIngestion, sent: SandboxPayment[]) {
  const reads: number[] = [];
  const log: Pick<SpiPaymentRepository, 'dueForSettlement'> = {
    dueForSettlement: async (before: Date, limit: number): Promise<DuePayment[]> => {
      const due = sent
        .map((p) => ({ p, inflow: ingestion.inflows.get(p.end_to_end_id) }))
        .filter(
          ({ inflow }) =>
            inflow && ['processing', 'approved', 'success'].includes(inflow.notification.status) && inflow.updatedAt <= before,
        )
        .slice(0, limit)
        .map(({ p, inflow }) => ({ payment: p, status: inflow?.notification.status ?? 'processing' }));
      reads.push(due.length);
      return due;
    },
  };
  return { repository: log, reads };
}

const later = (ms: number) => new Date(Date.now() + ms);

describe('SettleSandboxPixUseCase', () => {
  let ingestion: InMemoryIngestion;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => (ingestion = new InMemoryIngestion()));

  async function recorded(outcomes: SimulatedPixInOutcome[]): Promise<SandboxPayment[]> {
    const sent = outcomes.map(payment);
    for (const p of sent) await ingestion.execute(notificationOf(p, SPEC_ISPB, 'processing'));
    return sent;
  }

  const settlement = (sent: SandboxPayment[]) => {
    const log = paymentsLog(ingestion, sent);
    return { settle: new SettleSandboxPixUseCase(config, log.repository, ingestion), reads: log.reads };
  };

  it('moves nothing before the step delay, and reads once when nothing is due', async () => {
    const sent = await recorded(['credited']);
    const { settle, reads } = settlement(sent);

    expect(await settle.execute(later(STEP_MS / 2))).toBe(0);

    expect(ingestion.statusOf(sent[0].end_to_end_id)).toBe('processing');
    expect(reads).toEqual([0]);
  });

  it('notifies each step of each outcome through the ingestion, in order, until the end the sandbox asked for', async () => {
    const sent = await recorded(['credited', 'denied', 'failed']);
    const { settle } = settlement(sent);

    // Far ahead of the clock: every step is due as soon as the previous one is made.
    expect(await settle.execute(later(10 * STEP_MS))).toBe(3 + 1 + 2);

    const byInflow = sent.map((p) => ingestion.changes.filter((c) => c.startsWith(p.end_to_end_id)).map((c) => c.split(':')[1]));
    expect(byInflow).toEqual([
      ['processing', 'approved', 'success', 'credited'],
      ['processing', 'denied'],
      ['processing', 'approved', 'failed'],
    ]);
  });

  it('takes one step per due inflow when the clock is not ahead, and settles more than one batch in a run', async () => {
    const sent = await recorded(Array.from({ length: 230 }, () => 'credited' as const));
    for (const inflow of ingestion.inflows.values()) inflow.updatedAt = new Date(Date.now() - 2 * STEP_MS);
    const { settle, reads } = settlement(sent);

    expect(await settle.execute()).toBe(230);

    expect(new Set(sent.map((p) => ingestion.statusOf(p.end_to_end_id)))).toEqual(new Set(['approved']));
    // Rounds of at most 100, then one that found nothing left due.
    expect(reads).toEqual([100, 100, 30, 0]);
  });

  it('ends a run whose due inflow the ingestion refuses, moving the others', async () => {
    const [stuck, fine] = await recorded(['credited', 'credited']);
    // The log says another amount than the recorded inflow: every notification of it is end_to_end_id_conflict.
    const { settle } = settlement([{ ...stuck, amount_cents: 1 }, fine]);

    expect(await settle.execute(later(10 * STEP_MS))).toBe(3);

    expect([ingestion.statusOf(stuck.end_to_end_id), ingestion.statusOf(fine.end_to_end_id)]).toEqual(['processing', 'credited']);
  });

  it('counts a step another instance made meanwhile as done, and one it made past as nothing to do', async () => {
    const [ahead, past] = await recorded(['credited', 'credited']);
    // Stale reads: both still look `processing` to this instance, the other one already moved them.
    await ingestion.execute(notificationOf(ahead, SPEC_ISPB, 'approved'));
    for (const status of ['approved', 'success', 'credited'] as const) await ingestion.execute(notificationOf(past, SPEC_ISPB, status));
    const stale: DuePayment[] = [ahead, past].map((p) => ({ payment: p, status: 'processing' }));
    let served = false;
    const log: Pick<SpiPaymentRepository, 'dueForSettlement'> = { dueForSettlement: async () => (served ? [] : ((served = true), stale)) };
    const before = ingestion.changes.length;

    expect(await new SettleSandboxPixUseCase(config, log, ingestion).execute(later(10 * STEP_MS))).toBe(1);

    expect(ingestion.changes.length).toBe(before);
    expect([ingestion.statusOf(ahead.end_to_end_id), ingestion.statusOf(past.end_to_end_id)]).toEqual(['approved', 'credited']);
  });
});
