import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { requestErrorCodeOf, requestPayloadClassOf, requestRefusalsOf, requestTopics } from './contract-map';
import { ERROR_CODES, errorCodeOf, FAMILY_ERROR_CODES, GATEWAY_ERROR_CODES, isErrorCode } from './error-codes';
import { Topics } from './topics';

/** The codes a class's own and inherited constraints name (codesOf/withCode contexts); nested classes are not followed. */
const codesNamedBy = (cls: new () => object): unknown[] =>
  getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', true, false)
    .map((metadata): unknown => metadata.context?.code)
    .filter((code) => code !== undefined);

describe('error codes (docs/api.md: "Errors")', () => {
  it("lists every code once: each family's, and the gateway's own", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of [...Object.values(FAMILY_ERROR_CODES).flat(), ...GATEWAY_ERROR_CODES]) expect(ERROR_CODES).toContain(code);
  });

  it('recognises a code read at run time, and nothing else', () => {
    expect(errorCodeOf('invalid_fee')).toBe('invalid_fee');
    expect(isErrorCode('partner_not_found')).toBe(true);
    for (const value of ['mystery', 'INVALID_FEE', '', 3, null, undefined, {}]) expect(isErrorCode(value)).toBe(false);
  });

  it("recognises a reply's code among its topic's: its refusals and invalid_request, never another topic's", () => {
    expect(requestErrorCodeOf(Topics.WithdrawalsGet, 'not_found')).toBe('not_found');
    expect(requestErrorCodeOf(Topics.WithdrawalsGet, 'invalid_request')).toBe('invalid_request');
    expect(requestErrorCodeOf(Topics.WithdrawalsGet, 'insufficient_funds')).toBeUndefined();
    expect(requestErrorCodeOf(Topics.WithdrawalsCreate, 'invalid_document')).toBeUndefined();
  });

  it('sees the codes a payload class names (or the check below would prove nothing)', () => {
    expect(new Set(codesNamedBy(requestPayloadClassOf(Topics.WithdrawalsCreate)))).toEqual(
      new Set(['invalid_address', 'invalid_amount', 'invalid_fee']),
    );
  });

  // So a service's validation of a payload answers the code its constraint names, as the gateway did for the same class.
  it.each(requestTopics)('%s: every code its payload class names is one of its refusals', (topic) => {
    const refusals: readonly unknown[] = requestRefusalsOf(topic);
    expect(codesNamedBy(requestPayloadClassOf(topic)).filter((code) => !refusals.includes(code))).toEqual([]);
  });
});
