import { Topics } from '@partner/contracts';
import { checkedReply, MalformedReplyError } from './checked-reply';

describe('checkedReply (a reply off the wire, as its topic types it)', () => {
  it('passes a success through, its data as sent', () => {
    expect(checkedReply(Topics.WithdrawalsGetBalance, { ok: true, data: { available_usdt_micros: 5, held_usdt_micros: 0 } })).toEqual({
      ok: true,
      data: { available_usdt_micros: 5, held_usdt_micros: 0 },
    });
  });

  it("passes a refusal whose code is one of the topic's, or invalid_request, with its field", () => {
    expect(checkedReply(Topics.WithdrawalsGet, { ok: false, error: { code: 'not_found', message: 'no withdrawal 1' } })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no withdrawal 1' },
    });
    expect(
      checkedReply(Topics.EventsList, { ok: false, error: { code: 'invalid_request', message: 'bad cursor', field: 'cursor' } }),
    ).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'bad cursor', field: 'cursor' },
    });
  });

  it("passes the id of the resource a refusal names (a business customer's already_exists), and nothing else", () => {
    const error = { code: 'already_exists', message: 'm', field: 'cnpj', id: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' };
    expect(checkedReply(Topics.CustomersCreateBusiness, { ok: false, error: { ...error, extra: 'dropped' } })).toEqual({
      ok: false,
      error,
    });
  });

  it("passes the seconds until a refusal lifts (an SMS quota), the answer's Retry-After", () => {
    const error = { code: 'sms_quota_exceeded', message: 'm', retry_after_seconds: 3600 };
    expect(checkedReply(Topics.CustomersCreateBusiness, { ok: false, error })).toEqual({ ok: false, error });
  });

  it.each([
    ["a code the topic does not name (another family's)", { ok: false, error: { code: 'invalid_document', message: 'm' } }],
    ['a code that is no ErrorCode', { ok: false, error: { code: 'mystery', message: 'm' } }],
    ['a refusal without a message', { ok: false, error: { code: 'not_found' } }],
    ['a field that is not text', { ok: false, error: { code: 'not_found', message: 'm', field: 3 } }],
    ['an id that is not text', { ok: false, error: { code: 'not_found', message: 'm', id: 3 } }],
    ['seconds that are not a positive integer', { ok: false, error: { code: 'not_found', message: 'm', retry_after_seconds: 0.5 } }],
    ['no ok', { data: {} }],
    ['no object at all', 'not_found'],
  ])("refuses %s as a MalformedReplyError (a bug of ours: 500, never the caller's fault)", (_what, reply) => {
    expect(() => checkedReply(Topics.WithdrawalsGet, reply)).toThrow(MalformedReplyError);
  });
});
