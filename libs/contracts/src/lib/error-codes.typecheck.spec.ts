import { fail, ok } from './reply';
import { RequestReply } from './contract-map';
import { Topics } from './topics';

// Compile-time checks: tsc runs over spec files, and an @ts-expect-error that no longer meets an error
// fails the typecheck. So each line below proves that a code outside the unions does not compile.
describe('error code typing', () => {
  it('refuses a code outside ErrorCode, and a code outside its topic (checked by tsc)', () => {
    // @ts-expect-error no_such_code is no ErrorCode
    const unknown = fail('no_such_code', 'a typo');
    // A withdrawal read may answer not_found...
    const notFound: RequestReply<typeof Topics.WithdrawalsGet> = fail('not_found', 'no withdrawal 1');
    // @ts-expect-error ...but not insufficient_funds, which is no refusal of that topic
    const foreign: RequestReply<typeof Topics.WithdrawalsGet> = fail('insufficient_funds', 'not for a read');
    const fine: RequestReply<typeof Topics.EventsAck> = ok({ acknowledged: 0, not_found: [] });
    expect([unknown.ok, notFound.ok, foreign.ok, fine.ok]).toEqual([false, false, false, true]);
  });
});
