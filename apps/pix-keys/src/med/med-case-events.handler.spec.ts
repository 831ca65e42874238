import { MedCaseChangedEvent } from '@partner/contracts';
import { UnprocessableEventError } from '@partner/kafka';
import { MedCaseEventsHandler } from './med-case-events.handler';
import { medCaseChanged } from './med-case-changed.spec-support';
import { MedCase, MedCaseRepository, MedClose } from './med-case.repository';
import { RecordMedCaseDecisionUseCase } from './record-med-case-decision.use-case';

/** The repository as the decision uses it: cases waiting for one, and the closes asked for. */
class Cases implements Pick<MedCaseRepository, 'requestClose' | 'find'> {
  readonly closes: Array<{ id: string; close: MedClose }> = [];
  constructor(readonly waiting: Map<string, MedCase['kind']>) {}
  async requestClose(id: string, kind: MedCase['kind'], close: MedClose) {
    if (this.waiting.get(id) !== kind) return null;
    this.waiting.delete(id);
    this.closes.push({ id, close });
    return { id } as MedCase;
  }
  async find() {
    return null;
  }
}

const REPORT = '91d65e98-97c0-4b0f-b577-73625da1f9fc';
const REFUND = '0b8f5a52-55a4-4f0e-9c55-3a8f3c2d9f10';
const E2E = 'E00000001202611301200abcdefghijk';
const event = (patch: Partial<MedCaseChangedEvent>) =>
  medCaseChanged({ case_id: REPORT, kind: 'infraction_report', end_to_end_id: E2E }, { status: 'agreed', ...patch });

/** A payload as the broker hands it: any JSON, whatever its contract says. */
const fromTheWire = (payload: object): MedCaseChangedEvent => JSON.parse(JSON.stringify(payload));

function handler() {
  const cases = new Cases(
    new Map([
      [REPORT, 'infraction_report'],
      [REFUND, 'refund_request'],
    ]),
  );
  return { cases, handler: new MedCaseEventsHandler(new RecordMedCaseDecisionUseCase(cases)) };
}

describe('MedCaseEventsHandler', () => {
  it('records the close of a decided case once; an undecided event only reports', async () => {
    const { cases, handler: h } = handler();
    await h.handle(event({}));
    expect(cases.closes).toEqual([]);
    await h.handle(event({ dict_result: 'AGREED', analysis_details: 'Fraude confirmada' }));
    await h.handle(event({ dict_result: 'AGREED', analysis_details: 'Fraude confirmada' }));
    expect(cases.closes).toEqual([
      { id: REPORT, close: { result: 'AGREED', analysisDetails: 'Fraude confirmada', rejectionReason: null, refundTransactionId: null } },
    ]);
  });

  it('keeps only what each result sends DICT: an accepted refund its devolução, a rejected one its reason', async () => {
    const { cases, handler: h } = handler();
    const devolucao = `D99999999${'1'.repeat(23)}`;
    await h.handle(
      event({
        case_id: REFUND,
        kind: 'refund_request',
        dict_result: 'PARTIALLY_ACCEPTED',
        refund_transaction_id: devolucao,
        rejection_reason: 'OTHER',
      }),
    );
    expect(cases.closes).toEqual([
      { id: REFUND, close: { result: 'PARTIALLY_ACCEPTED', analysisDetails: null, rejectionReason: null, refundTransactionId: devolucao } },
    ]);
  });

  it('parks what DICT could never take: a result of the other kind, an accepted refund without its devolução, a rejected one without its reason', async () => {
    const { cases, handler: h } = handler();
    for (const wrong of [
      event({ dict_result: 'TOTALLY_ACCEPTED', refund_transaction_id: `D99999999${'1'.repeat(23)}` }),
      event({ case_id: REFUND, kind: 'refund_request', dict_result: 'AGREED' }),
      event({ case_id: REFUND, kind: 'refund_request', dict_result: 'TOTALLY_ACCEPTED' }),
      event({ case_id: REFUND, kind: 'refund_request', dict_result: 'REJECTED' }),
    ])
      await expect(h.handle(wrong)).rejects.toBeInstanceOf(UnprocessableEventError);
    // The contract itself, checked at the boundary (@HandleEvent): a result DICT does not know.
    await expect(h.handle(fromTheWire({ ...event({}), dict_result: 'MAYBE' }))).rejects.toBeInstanceOf(UnprocessableEventError);
    expect(cases.closes).toEqual([]);
  });
});
