import { RequestReply } from './contract-map';
import { fail, ok } from './reply';
import { Topics } from './topics';

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
  const fine: RequestReply<typeof Topics.EventsAck> = ok({ acknowledged: 0, not_found: [] });
  void [notFound, foreign, fine];
}
