import { IsIn } from 'class-validator';
import { IsCpf, validateCodedContract, withCode } from '@partner/validation';
import { RequestReply } from './contract-map';
import { codesOf, ErrorCode, FAMILY_ERROR_CODES, FamilyErrorCode } from './error-codes';
import { fail, ok } from './reply';
import { Topics } from './topics';
import { CreateUsdtWithdrawalRequest } from './withdrawals/create-withdrawal/create-usdt-withdrawal.request';

// Type tests (*.type-spec.ts): tsc checks them with the workspace, Jest never runs them; an expected
// error that no longer occurs fails the typecheck. So each line below proves that a
// code outside the unions does not compile.
export function errorCodeTyping(): void {
  // @ts-expect-error no_such_code is no ErrorCode
  fail('no_such_code', 'a typo');
  // A withdrawal read may answer not_found...
  const notFound: RequestReply<typeof Topics.WithdrawalsGet> = fail('not_found', 'no withdrawal 1');
  // @ts-expect-error ...but not insufficient_funds, which is no refusal of that topic
  const foreign: RequestReply<typeof Topics.WithdrawalsGet> = fail('insufficient_funds', 'not for a read');
  // @ts-expect-error a withdrawal handler cannot refuse with a Pix key's code (another family's)
  const otherFamily: RequestReply<typeof Topics.WithdrawalsCreate> = fail('invalid_document', 'not a withdrawal code');
  // Every topic may answer invalid_request (a payload that fails validation, a cursor it did not issue).
  const invalid: RequestReply<typeof Topics.EventsList> = fail('invalid_request', 'cursor must be a next_cursor', 'cursor');
  const fine: RequestReply<typeof Topics.EventsAck> = ok({ acknowledged: 0, not_found: [] });
  void [notFound, foreign, otherFamily, invalid, fine];
}

const withdrawalsCode = codesOf('withdrawals');

// A family's helper takes that family's codes only.
export class WithdrawalLikeRequest {
  @IsIn(['LOW'], withdrawalsCode('invalid_fee'))
  fee_choice!: string;

  // @ts-expect-error a withdrawal contract cannot name invalid_document, a Pix key's code
  @IsCpf(withdrawalsCode('invalid_document'))
  document!: string;
}

export function familyHelperTyping(): void {
  // @ts-expect-error no_such_code is no code of any family
  withdrawalsCode('no_such_code');
  // @ts-expect-error invalid_cnpj is a business customer's code, not a Pix key's
  codesOf('pix_keys')('invalid_cnpj');
  // @ts-expect-error only the families of docs/api.md exist
  codesOf('payments');
  // The validation building block carries whichever union it is given, and refuses what is outside it.
  const fee: FamilyErrorCode<'withdrawals'> = withCode<FamilyErrorCode<'withdrawals'>>('invalid_fee').context.code;
  // @ts-expect-error invalid_document is no FamilyErrorCode<'withdrawals'>
  withCode<FamilyErrorCode<'withdrawals'>>('invalid_document');
  void fee;
}

// A validation against a family's list answers that family's codes (and invalid_request), as its type says.
export function validatedCodeTyping(body: unknown): ErrorCode | undefined {
  const result = validateCodedContract(CreateUsdtWithdrawalRequest, body, FAMILY_ERROR_CODES.withdrawals);
  if (result.ok) return undefined;
  const code: FamilyErrorCode<'withdrawals'> = result.error.code;
  // @ts-expect-error a withdrawal's validation never answers invalid_document: the comparison cannot be true
  if (result.error.code === 'invalid_document') return 'invalid_document';
  return code;
}
