import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CancelPayoutCommand, CancelPayoutRequest, PayoutParams } from './cancel-payout.command';

/** The messages validation gives, by property. */
const errorsOf = <T extends object>(cls: new () => T, plain: object) =>
  validateSync(plainToInstance(cls, plain)).map((e) => [e.property, Object.values(e.constraints ?? {})[0]]);

describe('the cancel of a payout', () => {
  it('takes a note of 1 to 1000 characters, as a finding step does', () => {
    expect(errorsOf(CancelPayoutRequest, { note: 'the node keeps refusing it' })).toEqual([]);
    expect(errorsOf(CancelPayoutRequest, { note: 'x'.repeat(1000) })).toEqual([]);
    for (const note of ['', 'x'.repeat(1001), 42, undefined])
      expect(errorsOf(CancelPayoutRequest, { note })).toEqual([['note', 'note must be 1 to 1000 characters of text']]);
  });

  it("takes a positive integer as the path's withdrawal_id", () => {
    expect(plainToInstance(PayoutParams, { withdrawal_id: '42' }).withdrawal_id).toBe(42);
    expect(errorsOf(PayoutParams, { withdrawal_id: '42' })).toEqual([]);
    for (const withdrawal_id of ['0', '-1', 'abc', '1.5', '9007199254740992'])
      expect(errorsOf(PayoutParams, { withdrawal_id })).toEqual([['withdrawal_id', 'withdrawal_id must be a withdrawal id']]);
  });

  it('the command carries the withdrawal, the note, who asked and when', () => {
    const command = { withdrawal_id: 42, note: 'stuck', by: 'ops (adm_1)', asked_at: '2026-01-01T00:00:00.000Z' };
    expect(errorsOf(CancelPayoutCommand, command)).toEqual([]);
    expect(errorsOf(CancelPayoutCommand, { ...command, withdrawal_id: 0 }).map(([p]) => p)).toEqual(['withdrawal_id']);
    expect(errorsOf(CancelPayoutCommand, { ...command, by: '' }).map(([p]) => p)).toEqual(['by']);
  });
});
