import { genReqId } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const withHeader = (value?: string | string[]) => ({ headers: value === undefined ? {} : { 'x-request-id': value } });

describe('genReqId (the request id of every gateway request)', () => {
  it("is the caller's X-Request-Id when it is sane", () => {
    expect(genReqId(withHeader('abc-123'))).toBe('abc-123');
    expect(genReqId(withHeader('trace:01HZX3J8Q2.span_1'))).toBe('trace:01HZX3J8Q2.span_1');
  });

  it('is a new UUID when there is none, or it is not sane', () => {
    for (const value of [undefined, '', 'has space', 'x'.repeat(129), 'a\r\nSet-Cookie: x', ['abc', 'def']]) {
      expect({ value, id: genReqId(withHeader(value)) }).toEqual({ value, id: expect.stringMatching(UUID) });
    }
    expect(genReqId(withHeader())).not.toBe(genReqId(withHeader()));
  });
});
