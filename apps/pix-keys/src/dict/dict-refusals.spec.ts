import { DictProblem } from './dict-directory';
import { deletionDone, problemText, registrationVerdict } from './dict-refusals';

const problem = (type: string, status = 400): DictProblem => ({ type, status, title: type, detail: null });

describe('registrationVerdict: what a DICT refusal of a registration means for the partner', () => {
  it.each([
    ['EntryKeyInCustodyOfDifferentParticipant', { final: true, reason: 'key_held_elsewhere' }],
    ['EntryKeyOwnedByDifferentPerson', { final: true, reason: 'key_held_elsewhere' }],
    ['EntryAlreadyExists', { final: true, reason: 'key_linked_to_another_account' }],
    ['EntryInvalid', { final: true, reason: 'dict_rejected' }],
    ['EntryLimitExceeded', { final: true, reason: 'dict_rejected' }],
    ['EntryTaxIdNumberByDifferentOwner', { final: true, reason: 'dict_rejected' }],
    ['RequestIdAlreadyUsed', { final: true, reason: 'dict_rejected' }],
    ['InvalidReason', { final: true, reason: 'dict_rejected' }],
    ['BadRequest', { final: true, reason: 'dict_rejected' }],
    ['SomethingNewerThanTheDocument', { final: true, reason: 'dict_rejected' }],
    // The operator's set-up, not the user's data: retried (and alerted on), never the user's failure.
    ['Forbidden', { final: false, operatorProblem: true }],
    ['RequestSignatureInvalid', { final: false, operatorProblem: true }],
    ['RateLimited', { final: false, operatorProblem: false }],
    ['ServiceUnavailable', { final: false, operatorProblem: false }],
  ])('%s → %o', (type, verdict) => {
    expect(registrationVerdict(problem(type))).toEqual(verdict);
  });
});

describe('deletionDone', () => {
  it('takes NotFound as done (no entry left to delete), anything else as not yet', () => {
    expect(deletionDone(problem('NotFound', 404))).toBe(true);
    for (const type of ['EntryLockedByClaim', 'Forbidden', 'RequestSignatureInvalid', 'BadRequest'])
      expect(deletionDone(problem(type))).toBe(false);
  });
});

describe('problemText: a refusal as the DICT loops store and log it', () => {
  it('names the status and type, with the detail masked (DICT may quote the CPF)', () => {
    const text = problemText({ ...problem('EntryInvalid'), detail: 'key 12345678909 (CPF 123.456.789-09) is invalid' });
    expect(text).toMatch(/^DICT 400 EntryInvalid: key .+ is invalid$/);
    expect(text).not.toContain('12345678909');
    expect(text).not.toContain('123.456.789-09');
    expect(problemText(problem('Forbidden', 403))).toBe('DICT 403 Forbidden');
  });
});
