import { MedCaseCancelledEvent, MedCaseChangedEvent, MedCaseReceivedEvent, Topics } from '@partner/contracts';
import { endToEndIdOf, StackDict, startStackDict, STACK_OPERATOR_ISPB, TEST_DICT_TIMINGS } from '@partner/dict-test-server';
import { pollUntil, selectRows } from '@partner/testing';
import { BacenDictDirectory } from '../dict/bacen-dict-directory';
import { loadDictCredentials } from '../dict/dict-credentials';
import { DictMetrics } from '../dict/dict-metrics';
import { pixKeyCommands, specConfig } from '../pix-keys/pix-key-commands.spec-support';
import { medCaseChanged } from './med-case-changed.spec-support';
import { MedCaseRepository } from './med-case.repository';
import { ProcessDictMedUseCase } from './process-dict-med.use-case';
import { RecordMedCaseDecisionUseCase } from './record-med-case-decision.use-case';

// Integration: MED cases against payments this operator received (apps/pix-keys/src/med/), on the real pix_keys
// schema in PostgreSQL and a DICT test server of this spec's own, in which the spec plays the debited participant
// (another institution) that opens reports and refund requests. No broker: the events are read from the outbox, and
// the inflows service's decisions are handed to the use case as its Kafka handler would.

const DEBITED = '00000001';
// The test server's signer is a Java process: its first signatures are slow on a busy machine.
jest.setTimeout(30_000);

let dict: StackDict;
let commands: ReturnType<typeof pixKeyCommands>;
let directory: BacenDictDirectory;
let worker: ProcessDictMedUseCase;
let decide: RecordMedCaseDecisionUseCase;

beforeAll(async () => {
  dict = await startStackDict({ name: 'spec', port: 0, timings: TEST_DICT_TIMINGS });
  const config = specConfig({ ...dict.env, DICT_RETRY_BASE_MS: '10', DICT_RETRY_MAX_MS: '20' });
  commands = pixKeyCommands(config);
  directory = new BacenDictDirectory(config, loadDictCredentials(config), new DictMetrics());
  const cases = new MedCaseRepository(commands.db);
  worker = new ProcessDictMedUseCase(config, commands.unitOfWork, cases, directory);
  decide = new RecordMedCaseDecisionUseCase(cases);
  // Cases an earlier run left name reports this spec's DICT never had: their calls would take the faults injected here.
  await commands.db.query('DELETE FROM dict_med_cases');
});

afterAll(async () => {
  await directory?.onModuleDestroy();
  await commands?.close();
  await dict?.server.close();
});

/** A worker run with the listings' turns now and from the start (as a first instance would list). */
async function run() {
  await commands.db.query(`UPDATE dict_med_polls SET next_poll_at = '-infinity', modified_after = NULL`);
  await worker.execute();
}

const reportAgainstUs = () =>
  dict.server.as(DEBITED).createInfractionReport({
    transactionId: endToEndIdOf(DEBITED),
    infractionType: 'FRAUD',
    reportDetails: 'Golpe do falso parente',
    counterparty: STACK_OPERATOR_ISPB,
  });

const refundAgainstUs = (refundAmount: string) =>
  dict.server.as(DEBITED).createRefund({
    transactionId: endToEndIdOf(DEBITED),
    refundReason: 'OPERATIONAL_FLAW',
    refundAmount,
    contestedParticipant: STACK_OPERATOR_ISPB,
  });

const received = async (caseId: string) =>
  (
    await selectRows<{ topic: string; key: string; payload: MedCaseReceivedEvent }>(
      commands.db,
      'SELECT topic, key, payload FROM outbox_messages ORDER BY id',
    )
  ).filter((m) => m.payload.case_id === caseId);

const cancelledEvents = async (caseId: string) =>
  (
    await selectRows<{ topic: string; key: string; payload: MedCaseCancelledEvent }>(
      commands.db,
      'SELECT topic, key, payload FROM outbox_messages WHERE topic = $1 ORDER BY id',
      [Topics.PixKeysMedCaseCancelled],
    )
  ).filter((m) => m.payload.case_id === caseId);

type Row = {
  status: string;
  kind: string;
  acknowledged_at: Date | null;
  attempts: number;
  last_error: string | null;
  dict_result: string | null;
};
const caseRows = (id: string) => selectRows<Row>(commands.db, 'SELECT * FROM dict_med_cases WHERE id = $1', [id]);

/** The inflows service's MedCaseChanged for a DICT case of `kind`. */
const changed = (c: { id: string; transactionId: string }, kind: MedCaseChangedEvent['kind'], patch: Partial<MedCaseChangedEvent>) =>
  medCaseChanged({ case_id: c.id, kind, end_to_end_id: c.transactionId }, patch);

const untilRow = (description: string, id: string, accept: (row: Row) => boolean) =>
  pollUntil(
    description,
    async () => {
      await run();
      return (await caseRows(id))[0];
    },
    (row) => row !== undefined && accept(row),
    { timeoutMs: 10_000, intervalMs: 20 },
  );

describe('ProcessDictMedUseCase: MED cases against received payments (PostgreSQL, DICT test server)', () => {
  it('records a report against us once, with one MedCaseReceived, and acknowledges it in DICT', async () => {
    const report = reportAgainstUs();
    await run();
    expect(await caseRows(report.id)).toEqual([expect.objectContaining({ kind: 'infraction_report', status: 'received' })]);
    expect(await received(report.id)).toEqual([
      {
        topic: Topics.PixKeysMedCaseReceived,
        key: `pix_in:${report.transactionId}`,
        payload: {
          case_id: report.id,
          kind: 'infraction_report',
          end_to_end_id: report.transactionId,
          reason: 'FRAUD',
          amount_cents: null,
          details: 'Golpe do falso parente',
          infraction_report_id: null,
          opened_by: DEBITED,
          opened_at: report.creationTime,
          received_at: expect.any(String),
        },
      },
    ]);
    expect(dict.server.infractionReports.get(report.id)?.status).toBe('ACKNOWLEDGED');
    expect((await caseRows(report.id))[0].acknowledged_at).not.toBeNull();
    // Listed again (ACKNOWLEDGED now, and within the listing's overlap): nothing new.
    await run();
    await run();
    expect(await caseRows(report.id)).toHaveLength(1);
    expect(await received(report.id)).toHaveLength(1);
    expect(dict.server.requests.filter((r) => r.key === report.id).map((r) => [r.operationId, r.status])).toEqual([
      ['acknowledgeInfractionReport', 200],
    ]);
  });

  it('retries an acknowledgement DICT did not answer on the next runs', async () => {
    const report = reportAgainstUs();
    dict.server.injectFault({ operationId: 'acknowledgeInfractionReport', kind: 'unavailable', times: 1 });
    await run();
    expect((await caseRows(report.id))[0]).toMatchObject({ acknowledged_at: null, last_error: expect.stringContaining('503') });
    await untilRow('the report acknowledged on a later run', report.id, (row) => row.acknowledged_at !== null);
    expect(dict.server.infractionReports.get(report.id)?.status).toBe('ACKNOWLEDGED');
  });

  it('closes a report AGREED in DICT at the inflows service’s word, once; repeats and undecided events change nothing', async () => {
    const report = reportAgainstUs();
    await run();
    expect(await decide.execute(changed(report, 'infraction_report', {}))).toEqual({ outcome: 'ignored' });
    const agreed = changed(report, 'infraction_report', { status: 'agreed', dict_result: 'AGREED', analysis_details: 'Fraude confirmada' });
    expect(await decide.execute(agreed)).toEqual({ outcome: 'recorded' });
    expect(await decide.execute(agreed)).toEqual({ outcome: 'ignored' });
    expect(await decide.execute({ ...agreed, dict_result: 'DISAGREED' })).toEqual({ outcome: 'ignored' });
    await untilRow('the report closed', report.id, (row) => row.status === 'closed');
    expect(dict.server.infractionReports.get(report.id)).toMatchObject({
      status: 'CLOSED',
      analysisResult: 'AGREED',
      analysisDetails: 'Fraude confirmada',
    });
    await run();
    expect(dict.server.requests.filter((r) => r.key === report.id && r.operationId === 'closeInfractionReport')).toHaveLength(1);
  });

  it('closes a refund request TOTALLY_ACCEPTED with the devolução; its amount reached inflows in cents', async () => {
    const refund = refundAgainstUs('250.10');
    await run();
    expect((await received(refund.id)).map((m) => m.payload)).toEqual([
      expect.objectContaining({ kind: 'refund_request', reason: 'OPERATIONAL_FLAW', amount_cents: 25010, opened_by: DEBITED }),
    ]);
    const devolucao = `D${STACK_OPERATOR_ISPB}${'7'.repeat(23)}`;
    expect(
      await decide.execute(
        changed(refund, 'refund_request', { status: 'returned', dict_result: 'TOTALLY_ACCEPTED', refund_transaction_id: devolucao }),
      ),
    ).toEqual({ outcome: 'recorded' });
    await untilRow('the refund request closed', refund.id, (row) => row.status === 'closed');
    expect(dict.server.refunds.get(refund.id)).toMatchObject({
      status: 'CLOSED',
      analysisResult: 'TOTALLY_ACCEPTED',
      refundTransactionId: devolucao,
    });
  });

  it('refuses decisions DICT cannot take: a report REJECTED, an accepted refund without its devolução', async () => {
    const report = reportAgainstUs();
    const refund = refundAgainstUs('10.00');
    await run();
    expect(
      await decide.execute(changed(report, 'infraction_report', { dict_result: 'REJECTED', rejection_reason: 'OTHER' })),
    ).toMatchObject({
      outcome: 'invalid',
    });
    expect(await decide.execute(changed(refund, 'refund_request', { dict_result: 'PARTIALLY_ACCEPTED' }))).toMatchObject({
      outcome: 'invalid',
    });
    expect((await caseRows(report.id))[0].status).toBe('received');
    expect((await caseRows(refund.id))[0].status).toBe('received');
  });

  it('retries a close DICT did not answer (503) with backoff, and closes it once DICT is back', async () => {
    const report = reportAgainstUs();
    await run();
    dict.server.injectFault({ operationId: 'closeInfractionReport', kind: 'unavailable', times: 2 });
    await decide.execute(changed(report, 'infraction_report', { dict_result: 'DISAGREED', analysis_details: 'Sem indícios' }));
    await run();
    expect((await caseRows(report.id))[0]).toMatchObject({ status: 'closing', last_error: expect.stringContaining('503') });
    const closed = await untilRow('the report closed after DICT came back', report.id, (row) => row.status === 'closed');
    expect(closed).toMatchObject({ status: 'closed', last_error: null, dict_result: 'DISAGREED' });
    expect(
      dict.server.requests.filter((r) => r.key === report.id && r.operationId === 'closeInfractionReport').map((r) => r.status),
    ).toEqual([503, 503, 200]);
    expect(dict.server.infractionReports.get(report.id)).toMatchObject({ status: 'CLOSED', analysisResult: 'DISAGREED' });
  });

  it('ends a close DICT refuses failed, the problem kept (a refund request already closed by another answer)', async () => {
    const refund = refundAgainstUs('42.00');
    await run();
    const devolucao = `D${STACK_OPERATOR_ISPB}${'8'.repeat(23)}`;
    // Answered meanwhile outside this case's row (by hand): DICT has it CLOSED, the decision recorded cannot be sent.
    expect(
      await directory.closeRefund(refund.id, { result: 'TOTALLY_ACCEPTED', details: null, refundTransactionId: devolucao }),
    ).toMatchObject({
      outcome: 'done',
    });
    await decide.execute(changed(refund, 'refund_request', { dict_result: 'REJECTED', rejection_reason: 'NO_BALANCE' }));
    const failed = await untilRow('the close refused', refund.id, (row) => row.status !== 'closing');
    expect(failed).toMatchObject({ status: 'failed', last_error: expect.stringContaining('RefundOperationInvalid') });
    await run();
    expect(dict.server.requests.filter((r) => r.key === refund.id && r.operationId === 'closeRefund')).toHaveLength(2);
  });

  it('ends a report its opener cancelled: one MedCaseCancelled, the row cancelled, nothing more owed DICT', async () => {
    const report = reportAgainstUs();
    await run();
    expect((await caseRows(report.id))[0]).toMatchObject({ status: 'received', acknowledged_at: expect.any(Date) });
    dict.server.as(DEBITED).cancelInfractionReport(report.id);
    await run();
    expect(await cancelledEvents(report.id)).toEqual([
      {
        topic: Topics.PixKeysMedCaseCancelled,
        key: `pix_in:${report.transactionId}`,
        payload: {
          case_id: report.id,
          kind: 'infraction_report',
          end_to_end_id: report.transactionId,
          cancelled_at: dict.server.infractionReports.get(report.id)?.lastModified,
        },
      },
    ]);
    expect((await caseRows(report.id))[0]).toMatchObject({ status: 'cancelled', last_error: null });
    // The inflows service's decision on it, late: nothing to close.
    const agreed = changed(report, 'infraction_report', { status: 'agreed', dict_result: 'AGREED' });
    expect(await decide.execute(agreed)).toEqual({ outcome: 'ignored' });
    await run();
    await run();
    expect(await cancelledEvents(report.id)).toHaveLength(1);
    expect((await caseRows(report.id))[0].status).toBe('cancelled');
    expect(dict.server.requests.filter((r) => r.key === report.id).map((r) => r.operationId)).toEqual(['acknowledgeInfractionReport']);
  });

  it('ends a report cancelled before its acknowledgement (refused) instead of retrying it for ever', async () => {
    const report = reportAgainstUs();
    dict.server.injectFault({ operationId: 'acknowledgeInfractionReport', kind: 'unavailable', times: 1 });
    await run();
    expect((await caseRows(report.id))[0]).toMatchObject({ acknowledged_at: null, last_error: expect.stringContaining('503') });
    dict.server.as(DEBITED).cancelInfractionReport(report.id);
    // The listing does not answer this time: the refused acknowledgement is what finds the cancellation.
    dict.server.injectFault({ operationId: 'listInfractionReport', kind: 'unavailable', times: 1 });
    await commands.db.query('UPDATE dict_med_cases SET next_attempt_at = NULL WHERE id = $1', [report.id]);
    await run();
    expect((await caseRows(report.id))[0]).toMatchObject({ status: 'cancelled', last_error: null });
    expect(await cancelledEvents(report.id)).toHaveLength(1);
    const calls = () => dict.server.requests.filter((r) => r.key === report.id).map((r) => [r.operationId, r.status]);
    expect(calls()).toEqual([
      ['acknowledgeInfractionReport', 503],
      ['acknowledgeInfractionReport', 400],
      ['getInfractionReport', 200],
    ]);
    await run();
    await run();
    expect(calls()).toHaveLength(3);
    expect(await cancelledEvents(report.id)).toHaveLength(1);
  });

  it('ends a refund request cancelled after the decision: the refused close reads it CANCELLED, not failed', async () => {
    const refund = refundAgainstUs('42.00');
    await run();
    dict.server.as(DEBITED).cancelRefund(refund.id);
    await decide.execute(changed(refund, 'refund_request', { dict_result: 'REJECTED', rejection_reason: 'NO_BALANCE' }));
    dict.server.injectFault({ operationId: 'listRefund', kind: 'unavailable', times: 1 });
    await run();
    expect((await caseRows(refund.id))[0]).toMatchObject({ status: 'cancelled', last_error: null, dict_result: 'REJECTED' });
    expect((await cancelledEvents(refund.id)).map((m) => m.payload)).toEqual([
      expect.objectContaining({ case_id: refund.id, kind: 'refund_request', end_to_end_id: refund.transactionId }),
    ]);
    await run();
    expect(dict.server.requests.filter((r) => r.key === refund.id && r.operationId === 'closeRefund')).toHaveLength(1);
  });
});
