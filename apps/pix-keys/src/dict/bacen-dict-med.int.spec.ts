import { randomUUID } from 'node:crypto';
import { endToEndIdOf, StackDict, startStackDict, STACK_OPERATOR_ISPB, TEST_DICT_TIMINGS } from '@partner/dict-test-server';
import { PixKeysConfig } from '../config/pix-keys.config';
import { specConfig } from '../pix-keys/pix-key-commands.spec-support';
import { BacenDictDirectory } from './bacen-dict-directory';
import { loadDictCredentials } from './dict-credentials';

// Integration: pix-keys' production DICT adapter's MED operations (infraction reports as the credited participant,
// refund requests as the contested one) against the DICT test server over mutual TLS, which validates every request
// and its own answers against the vendored document. Another participant, the debited one, is played in process.
// No database, no broker.

const DEBITED = '00000001';
// The test server's signer is a Java process: its first signatures are slow on a busy machine.
jest.setTimeout(30_000);

let dict: StackDict;
let config: PixKeysConfig;
let adapter: BacenDictDirectory;

beforeAll(async () => {
  dict = await startStackDict({ name: 'spec', port: 0, timings: TEST_DICT_TIMINGS });
  config = specConfig(dict.env);
  adapter = new BacenDictDirectory(config, loadDictCredentials(config));
});

afterAll(async () => {
  await adapter?.onModuleDestroy();
  await dict?.server.close();
});

const report = (details = 'Pagamento de boleto falso') =>
  dict.server.as(DEBITED).createInfractionReport({
    transactionId: endToEndIdOf(DEBITED),
    infractionType: 'FRAUD',
    reportDetails: details,
    counterparty: STACK_OPERATOR_ISPB,
  });
const refund = (refundAmount: string, transactionId = endToEndIdOf(DEBITED)) =>
  dict.server.as(DEBITED).createRefund({
    transactionId,
    refundReason: 'OPERATIONAL_FLAW',
    refundAmount,
    refundDetails: 'Valor enviado em duplicidade',
    contestedParticipant: STACK_OPERATOR_ISPB,
  });
const calls = (id: string, operations: RegExp) =>
  dict.server.requests
    .filter((r) => r.key === id && operations.test(r.operationId ?? ''))
    .map((r) => [r.operationId, r.status, r.signed, r.problem]);

describe("BacenDictDirectory's infraction reports, this operator the credited participant", () => {
  it('lists the reports against it with their details, acknowledges one (idempotently) and closes it AGREED, once', async () => {
    const since = new Date(Date.now() - 1000);
    const opened = report('Transação feita através de QR Code falso');
    const listed = await adapter.listInfractionReports({
      isCredited: true,
      status: ['OPEN', 'ACKNOWLEDGED'],
      modifiedAfter: since,
      limit: 200,
    });
    expect(listed).toMatchObject({ outcome: 'done', value: { hasMore: false } });
    const mine = listed.outcome === 'done' ? listed.value.reports.filter((r) => r.id === opened.id) : [];
    expect(mine).toEqual([
      {
        id: opened.id,
        transactionId: opened.transactionId,
        infractionType: 'FRAUD',
        reportedBy: 'DEBITED_PARTICIPANT',
        reportDetails: 'Transação feita através de QR Code falso',
        status: 'OPEN',
        debitedParticipant: DEBITED,
        creditedParticipant: STACK_OPERATOR_ISPB,
        creationTime: new Date(opened.creationTime),
        lastModified: new Date(opened.lastModified),
        analysisResult: null,
        analysisDetails: null,
      },
    ]);
    // Closed only once acknowledged (the document: "Para fechamento, o status deve ser ACKNOWLEDGED").
    const close = { result: 'AGREED' as const, details: 'Valor bloqueado; fraude confirmada' };
    expect(await adapter.closeInfractionReport(opened.id, close)).toMatchObject({
      outcome: 'refused',
      problem: { type: 'InfractionReportOperationInvalid', status: 400 },
    });
    expect(await adapter.acknowledgeInfractionReport(opened.id)).toMatchObject({ outcome: 'done', value: { status: 'ACKNOWLEDGED' } });
    expect(await adapter.acknowledgeInfractionReport(opened.id)).toMatchObject({ outcome: 'done', value: { status: 'ACKNOWLEDGED' } });
    const closed = {
      outcome: 'done',
      value: { id: opened.id, status: 'CLOSED', analysisResult: 'AGREED', analysisDetails: close.details },
    };
    expect(await adapter.closeInfractionReport(opened.id, close)).toMatchObject(closed);
    expect(await adapter.closeInfractionReport(opened.id, close)).toMatchObject(closed);
    expect(await adapter.closeInfractionReport(opened.id, { result: 'DISAGREED', details: null })).toMatchObject({
      outcome: 'refused',
      problem: { type: 'InfractionReportOperationInvalid' },
    });
    expect(dict.server.infractionReports.get(opened.id)).toMatchObject({ status: 'CLOSED', analysisResult: 'AGREED' });
    // Every call signed and taken by the test server, which validates each body against the document.
    expect(calls(opened.id, /InfractionReport$/)).toEqual([
      ['closeInfractionReport', 400, true, 'InfractionReportOperationInvalid'],
      ['acknowledgeInfractionReport', 200, true, undefined],
      ['acknowledgeInfractionReport', 200, true, undefined],
      ['closeInfractionReport', 200, true, undefined],
      ['closeInfractionReport', 200, true, undefined],
      ['closeInfractionReport', 400, true, 'InfractionReportOperationInvalid'],
    ]);
  });

  it('pages a listing: Limit, HasMoreElements, ascending LastModified', async () => {
    const since = new Date(Date.now() - 1);
    // A millisecond apart: DICT's ModifiedAfter is inclusive, so a page's last LastModified starts the next page.
    const opened = [0, 1, 2].map(() => {
      dict.server.advanceClock(1);
      return report();
    });
    const first = await adapter.listInfractionReports({ isCredited: true, status: ['OPEN'], modifiedAfter: since, limit: 2 });
    expect(first).toMatchObject({ outcome: 'done', value: { hasMore: true } });
    const page = first.outcome === 'done' ? first.value.reports : [];
    expect(page.map((r) => r.id)).toEqual(opened.slice(0, 2).map((r) => r.id));
    const rest = await adapter.listInfractionReports({ isCredited: true, status: ['OPEN'], modifiedAfter: page[1].lastModified, limit: 2 });
    expect(rest.outcome === 'done' ? rest.value.reports.map((r) => r.id) : []).toEqual([opened[1].id, opened[2].id]);
    // The debited side's listing is not ours: reports we are credited in never list there.
    const debited = await adapter.listInfractionReports({ isDebited: true, modifiedAfter: since, limit: 200 });
    expect(debited).toMatchObject({ outcome: 'done', value: { reports: [] } });
  });
});

describe("BacenDictDirectory's refund requests, this operator the contested participant", () => {
  it('lists an OPEN request with its amount in cents (123.45 is 12345) and closes it TOTALLY_ACCEPTED with the devolução', async () => {
    const since = new Date(Date.now() - 1000);
    const opened = refund('123.45');
    const listed = await adapter.listRefunds({ role: 'CONTESTED', status: ['OPEN'], modifiedAfter: since, limit: 200 });
    const mine = listed.outcome === 'done' ? listed.value.refunds.filter((r) => r.id === opened.id) : [];
    expect(mine).toEqual([
      expect.objectContaining({
        id: opened.id,
        transactionId: opened.transactionId,
        refundReason: 'OPERATIONAL_FLAW',
        amountCents: 12345,
        refundDetails: 'Valor enviado em duplicidade',
        status: 'OPEN',
        requestingParticipant: DEBITED,
        contestedParticipant: STACK_OPERATOR_ISPB,
        infractionReportId: null,
      }),
    ]);
    const devolucao = `D${STACK_OPERATOR_ISPB}${'2'.repeat(23)}`;
    const close = { result: 'TOTALLY_ACCEPTED' as const, details: 'Valor devolvido', refundTransactionId: devolucao };
    const closed = { outcome: 'done', value: { status: 'CLOSED', analysisResult: 'TOTALLY_ACCEPTED', refundTransactionId: devolucao } };
    expect(await adapter.closeRefund(opened.id, close)).toMatchObject(closed);
    expect(await adapter.closeRefund(opened.id, close)).toMatchObject(closed);
    expect(await adapter.closeRefund(opened.id, { result: 'REJECTED', details: null, rejectionReason: 'NO_BALANCE' })).toMatchObject({
      outcome: 'refused',
      problem: { type: 'RefundOperationInvalid' },
    });
    expect(dict.server.refunds.get(opened.id)).toMatchObject({
      status: 'CLOSED',
      refundTransactionId: devolucao,
      analysisDetails: 'Valor devolvido',
    });
  });

  it('rejects a request with its reason, no devolução; a FRAUD request follows the report of its payment', async () => {
    const opened = refund('0.29');
    expect(await adapter.closeRefund(opened.id, { result: 'REJECTED', details: 'Sem saldo', rejectionReason: 'NO_BALANCE' })).toMatchObject(
      {
        outcome: 'done',
        value: { amountCents: 29, status: 'CLOSED', analysisResult: 'REJECTED', rejectionReason: 'NO_BALANCE', refundTransactionId: null },
      },
    );
    const reported = report();
    expect(() => dict.server.as(DEBITED).createRefund({ ...refundInput(), refundReason: 'FRAUD' })).toThrow(
      /RefundInfractionReportNotFound/,
    );
    const fraud = dict.server
      .as(DEBITED)
      .createRefund({ ...refundInput(), transactionId: reported.transactionId, refundReason: 'FRAUD', refundAmount: '200.00' });
    const listed = await adapter.listRefunds({ role: 'CONTESTED', status: ['OPEN'], limit: 200 });
    expect(listed.outcome === 'done' ? listed.value.refunds.find((r) => r.id === fraud.id) : undefined).toMatchObject({
      amountCents: 20000,
      infractionReportId: reported.id,
    });
  });
});

describe("BacenDictDirectory's reads of one case (getInfractionReport, getRefund)", () => {
  it('reads a report and a request as DICT now has them: CANCELLED once their opener cancelled them', async () => {
    const reported = report();
    const requested = refund('5.00');
    expect(await adapter.getInfractionReport(reported.id)).toMatchObject({ outcome: 'done', value: { id: reported.id, status: 'OPEN' } });
    dict.server.as(DEBITED).cancelInfractionReport(reported.id);
    dict.server.as(DEBITED).cancelRefund(requested.id);
    expect(await adapter.getInfractionReport(reported.id)).toMatchObject({
      outcome: 'done',
      value: { id: reported.id, status: 'CANCELLED', transactionId: reported.transactionId },
    });
    expect(await adapter.getRefund(requested.id)).toMatchObject({
      outcome: 'done',
      value: { id: requested.id, status: 'CANCELLED', amountCents: 500 },
    });
    expect(await adapter.getRefund(randomUUID())).toMatchObject({ outcome: 'refused', problem: { status: 404 } });
  });
});

const refundInput = () => ({
  transactionId: endToEndIdOf(DEBITED),
  refundReason: 'OPERATIONAL_FLAW' as const,
  refundAmount: '10.00',
  contestedParticipant: STACK_OPERATOR_ISPB,
});
