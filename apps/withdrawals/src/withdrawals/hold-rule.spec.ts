import { hold, holdMove } from './hold-rule';

describe('hold: the money rule of a withdrawal', () => {
  it('moves amount + fee from available to held: the deltas CREATE_HELD and APPLY_HOLD add and record', () => {
    expect(holdMove(1_000_000n, 50_000n)).toEqual({ availableDelta: -1_050_000n, heldDelta: 1_050_000n });
    expect(holdMove(1n, 0n)).toEqual({ availableDelta: -1n, heldDelta: 1n });
  });

  it('holds when available covers all of it, to the last micro, the balance after being the move applied', () => {
    expect(hold({ availableMicros: 1_050_000n, heldMicros: 7n }, 1_000_000n, 50_000n)).toEqual({
      held: { availableMicros: 0n, heldMicros: 1_050_007n },
      move: { availableDelta: -1_050_000n, heldDelta: 1_050_000n },
    });
  });

  it('refuses one micro short, and for no account at all', () => {
    expect(hold({ availableMicros: 1_049_999n, heldMicros: 0n }, 1_000_000n, 50_000n)).toBe('insufficient');
    expect(hold(null, 1n, 0n)).toBe('not_found');
  });
});
