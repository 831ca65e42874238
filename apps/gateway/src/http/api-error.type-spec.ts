import { ErrorCode } from '@partner/contracts';
import { apiErrorOf, STATUS_OF_CODE } from './api-error';

// Type tests (*.type-spec.ts): tsc checks them with the workspace, Jest never runs them; an expected
// error that no longer occurs fails the typecheck. STATUS_OF_CODE is total over ErrorCode, so a code added to the
// union without a status, or an answer with a code outside the union, does not compile.
export function statusOfCodeIsTotal(): Record<ErrorCode, number> {
  const { internal_error: _dropped, ...missingOne } = STATUS_OF_CODE;
  // @ts-expect-error no_such_code is no ErrorCode
  apiErrorOf({ code: 'no_such_code', message: 'a typo' });
  // @ts-expect-error a table missing internal_error is not a Record<ErrorCode, number>
  return missingOne;
}
