import { PIX_IN_NOTIFIED_STATUSES } from '@partner/contracts';
import { transitionOf } from './pix-in-transitions';

describe('transitionOf', () => {
  it.each([
    ['processing', 'approved'],
    ['processing', 'denied'],
    ['processing', 'failed'],
    ['approved', 'success'],
    ['approved', 'failed'],
    ['success', 'credited'],
  ] as const)('moves %s -> %s', (from, to) => {
    expect(transitionOf(from, to)).toBe('move');
  });

  it('keeps the same status, and an earlier one while the inflow settles (late delivery)', () => {
    for (const status of PIX_IN_NOTIFIED_STATUSES) expect(transitionOf(status, status)).toBe('keep');
    expect(transitionOf('approved', 'processing')).toBe('keep');
    expect(transitionOf('success', 'processing')).toBe('keep');
    expect(transitionOf('success', 'approved')).toBe('keep');
  });

  it('refuses any other status once final, and skipped steps', () => {
    for (const final of ['denied', 'failed', 'credited'] as const) {
      for (const to of PIX_IN_NOTIFIED_STATUSES.filter((s) => s !== final)) expect(transitionOf(final, to)).toBe('refuse');
    }
    expect(transitionOf('processing', 'success')).toBe('refuse');
    expect(transitionOf('processing', 'credited')).toBe('refuse');
    expect(transitionOf('approved', 'credited')).toBe('refuse');
    expect(transitionOf('approved', 'denied')).toBe('refuse');
  });

  it('refuses to fail a settled Pix (success): the money is at the operator, taken back only by a return', () => {
    expect(transitionOf('success', 'failed')).toBe('refuse');
    expect(transitionOf('success', 'denied')).toBe('refuse');
  });

  it('takes an inflow a MED case blocks, or its refunds returned (partly or wholly), as credited: credited again is kept, anything else refused', () => {
    for (const returned of ['blocked', 'partially_returned', 'returned'] as const) {
      expect(transitionOf(returned, 'credited')).toBe('keep');
      for (const to of PIX_IN_NOTIFIED_STATUSES.filter((s) => s !== 'credited')) expect(transitionOf(returned, to)).toBe('refuse');
    }
  });
});
