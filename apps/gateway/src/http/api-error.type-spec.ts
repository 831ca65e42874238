import { ErrorCode } from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { apiErrorOf, STATUS_OF_CODE } from './api-error';
import { ApiErrors, PARTNER_ERRORS } from './api-responses.decorator';

// Type tests (*.type-spec.ts): tsc checks them with the workspace, Jest never runs them; an expected
// error that no longer occurs fails the typecheck. STATUS_OF_CODE is total over ErrorCode, so a code added to the
// union without a status, or an answer with a code outside the union, does not compile.
export function statusOfCodeIsTotal(): Record<ErrorCode, number> {
  const { internal_error: _dropped, ...missingOne } = STATUS_OF_CODE;
  // @ts-expect-error no_such_code is no ErrorCode
  apiErrorOf({ code: 'no_such_code', message: 'a typo' });
  // A validation whose code is untyped (validateContract, for consumers that only log) has no status:
  // the pipes answer with validateCodedContract, whose codes are the contracts' lists.
  const untyped = validateContract(Object, {});
  // @ts-expect-error a string code is no ErrorCode
  if (!untyped.ok) apiErrorOf(untyped.error);
  // A route documents its family's codes and the gateway's own...
  ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_fee', 'insufficient_funds']);
  // @ts-expect-error ...never another family's: invalid_document is a Pix key's
  ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_document']);
  // @ts-expect-error a table missing internal_error is not a Record<ErrorCode, number>
  return missingOne;
}
