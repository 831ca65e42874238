import { acceptedResult, planBlock, releasedStatus, statusAfterReturn } from './med-case-rules';

describe('planBlock', () => {
  const base = { requestedCents: null, reachCents: 10_000n, others: [], availableCents: 50_000n };

  it("blocks a report's reach (the inflow's amount not refunded), at most the available balance", () => {
    expect(planBlock({ ...base, kind: 'infraction_report' })).toEqual({
      askedCents: 10_000n,
      takeOver: [],
      topUpCents: 10_000n,
      blockedCents: 10_000n,
    });
    expect(planBlock({ ...base, kind: 'infraction_report', availableCents: 3_000n })).toMatchObject({
      askedCents: 10_000n,
      blockedCents: 3_000n,
    });
    expect(planBlock({ ...base, kind: 'infraction_report', availableCents: 0n })).toMatchObject({ topUpCents: 0n, blockedCents: 0n });
  });

  it("caps a refund request's amount at the reach", () => {
    expect(planBlock({ ...base, kind: 'refund_request', requestedCents: 12_000n })).toMatchObject({
      askedCents: 10_000n,
      blockedCents: 10_000n,
    });
    expect(planBlock({ ...base, kind: 'refund_request', requestedCents: 4_000n })).toMatchObject({
      askedCents: 4_000n,
      blockedCents: 4_000n,
    });
  });

  it("takes a report's block over, releasing its excess, topping up only the difference", () => {
    const report = { caseId: 'r', kind: 'infraction_report' as const, blockedCents: 10_000n };
    expect(planBlock({ ...base, kind: 'refund_request', requestedCents: 4_000n, others: [report], availableCents: 0n })).toEqual({
      askedCents: 4_000n,
      takeOver: [{ caseId: 'r', takenCents: 4_000n, releasedCents: 6_000n }],
      topUpCents: 0n,
      blockedCents: 4_000n,
    });
    const short = { ...report, blockedCents: 3_000n };
    expect(planBlock({ ...base, kind: 'refund_request', requestedCents: 10_000n, others: [short], availableCents: 5_000n })).toEqual({
      askedCents: 10_000n,
      takeOver: [{ caseId: 'r', takenCents: 3_000n, releasedCents: 0n }],
      topUpCents: 5_000n,
      blockedCents: 8_000n,
    });
  });

  it('never blocks what another case of the payment already holds', () => {
    const request = { caseId: 'q', kind: 'refund_request' as const, blockedCents: 7_000n };
    expect(planBlock({ ...base, kind: 'infraction_report', others: [request] })).toMatchObject({
      topUpCents: 3_000n,
      blockedCents: 3_000n,
    });
    expect(planBlock({ ...base, kind: 'refund_request', requestedCents: 9_000n, others: [request] })).toMatchObject({
      takeOver: [],
      blockedCents: 3_000n,
    });
  });
});

describe('acceptedResult and releasedStatus', () => {
  it('tells DICT all (TOTALLY_ACCEPTED) or part (PARTIALLY_ACCEPTED) of what was asked', () => {
    expect(acceptedResult(4_000n, 4_000n)).toBe('TOTALLY_ACCEPTED');
    expect(acceptedResult(3_999n, 4_000n)).toBe('PARTIALLY_ACCEPTED');
  });

  it('gives a released inflow the status its returns made it', () => {
    expect(releasedStatus(1_000n, 0n)).toBe('credited');
    expect(releasedStatus(1_000n, 400n)).toBe('partially_returned');
    expect(releasedStatus(1_000n, 1_000n)).toBe('returned');
  });
});

describe('statusAfterReturn', () => {
  const inflow = (status: 'credited' | 'partially_returned' | 'blocked', returnedCents = 0n) => ({
    status,
    amountCents: 1_000n,
    returnedCents,
  });

  it("makes a partner's refund's inflow partially_returned, then returned once its returns, this one counted, are all of it", () => {
    expect(statusAfterReturn(inflow('credited'), 400n, 'partner_refund')).toBe('partially_returned');
    expect(statusAfterReturn(inflow('partially_returned', 400n), 599n, 'partner_refund')).toBe('partially_returned');
    expect(statusAfterReturn(inflow('partially_returned', 400n), 600n, 'partner_refund')).toBe('returned');
    expect(statusAfterReturn(inflow('credited'), 1_000n, 'partner_refund')).toBe('returned');
  });

  it("keeps a blocked inflow blocked when a partner's refund settles: the case's release sets its status", () => {
    expect(statusAfterReturn(inflow('blocked'), 400n, 'partner_refund')).toBe('blocked');
    expect(statusAfterReturn(inflow('blocked', 600n), 400n, 'partner_refund')).toBe('blocked');
  });

  it("takes a blocked inflow out of blocked when a MED case's devolução settles, as releasedStatus does", () => {
    expect(statusAfterReturn(inflow('blocked'), 400n, 'med_case')).toBe('partially_returned');
    expect(statusAfterReturn(inflow('blocked', 300n), 700n, 'med_case')).toBe('returned');
    for (const [before, cents] of [
      [0n, 1n],
      [200n, 300n],
      [0n, 1_000n],
      [999n, 1n],
    ])
      expect(statusAfterReturn(inflow('blocked', before), cents, 'med_case')).toBe(releasedStatus(1_000n, before + cents));
  });
});
