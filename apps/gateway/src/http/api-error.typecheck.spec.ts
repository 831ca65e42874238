import { ErrorCode } from '@partner/contracts';
import { apiErrorOf, STATUS_OF_CODE } from './api-error';

// Compile-time checks (tsc runs over specs; an unused @ts-expect-error fails it): STATUS_OF_CODE is total
// over ErrorCode, so a code added to the union without a status, or a status for no code, does not compile.
describe('STATUS_OF_CODE typing', () => {
  it('is total over ErrorCode and knows no other code (checked by tsc)', () => {
    const { internal_error: _dropped, ...missingOne } = STATUS_OF_CODE;
    // @ts-expect-error a table missing internal_error is not a Record<ErrorCode, number>
    const partial: Record<ErrorCode, number> = missingOne;
    // @ts-expect-error no_such_code is no ErrorCode
    const unknown = apiErrorOf({ code: 'no_such_code', message: 'a typo' });
    expect(Object.keys(partial)).not.toContain('internal_error');
    expect(unknown.status).toBeUndefined();
  });
});
