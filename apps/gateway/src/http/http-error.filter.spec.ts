import {
  BadRequestException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { MalformedReplyError, ServiceUnavailableError } from '@partner/kafka';
import { ErrorCode } from '@partner/contracts';
import { apiErrorOf } from './api-error';
import { errorBody } from './error-body';
import { httpContext, recordingReply } from './http-context.spec-support';
import { HttpErrorFilter, toHttpError } from './http-error.filter';

describe('error mapping (docs/api.md: "Errors")', () => {
  it.each<[ErrorCode, number]>([
    ['user_not_found', 404],
    ['invalid_address', 400],
    ['insufficient_funds', 422],
    ['invalid_amount', 422],
    ['invalid_fee', 422],
    ['idempotency_key_reused', 422],
    ['invalid_request', 400],
    ['not_found', 404],
  ])('%s answers %d', (code, status) => {
    expect(toHttpError(apiErrorOf({ code, message: 'm' })).status).toBe(status);
  });

  // An unknown code does not compile (error-codes.type-spec.ts); only a service's reply off the wire can still hold one.
  it("an unknown code is a server bug (500), never passed off as the caller's fault", () => {
    const reply = { ok: false, error: { code: 'mystery', message: 'm' } };
    expect(toHttpError(new MalformedReplyError('withdrawals.query.get.v1', reply))).toEqual({
      status: 500,
      detail: { code: 'internal_error', message: 'internal error; it was logged' },
    });
  });

  it('a service that does not answer is 503 service_unavailable, the outcome unknown', () => {
    expect(toHttpError(new ServiceUnavailableError('withdrawals.command.create.v1', 'timed_out'))).toEqual({
      status: 503,
      detail: {
        code: 'service_unavailable',
        message: 'the service did not answer in time; the outcome is unknown: retry with the same idempotency_key',
      },
    });
  });

  it('a service whose handler failed is never reported as "did not answer in time"', () => {
    const { status, detail } = toHttpError(new ServiceUnavailableError('withdrawals.command.create.v1', 'failed', 'invalid byte sequence'));
    expect({ status, code: detail.code }).toEqual({ status: 503, code: 'service_unavailable' });
    expect(detail.message).toBe(
      'the service failed while handling the request; the outcome is unknown: retry with the same idempotency_key',
    );
    expect(detail.message).not.toContain('in time');
    // Nor does it leak the service's own error text.
    expect(detail.message).not.toContain('invalid byte sequence');
  });

  it.each([
    [
      'terminated by an administrator (chaos: database outage)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['cut mid-query', new Error('Connection terminated unexpectedly')],
    ['no connection free in time', new Error('timeout exceeded when trying to connect')],
  ])("the gateway's database %s is 503 service_unavailable, not a 500", (_label, error) => {
    expect(toHttpError(error)).toMatchObject({ status: 503, detail: { code: 'service_unavailable' } });
  });

  it('a database error that is not about reaching it stays a 500', () => {
    expect(toHttpError(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })).status).toBe(500);
  });

  it.each([
    [new BadRequestException(), 400, 'invalid_request'],
    [new NotFoundException(), 404, 'not_found'],
    [new PayloadTooLargeException(), 413, 'payload_too_large'],
    [new UnsupportedMediaTypeException(), 415, 'unsupported_media_type'],
    [Object.assign(new Error('Body is too large'), { statusCode: 413 }), 413, 'payload_too_large'],
  ])('framework error %p is %d %s', (error, status, code) => {
    expect(toHttpError(error)).toMatchObject({ status, detail: { code } });
  });

  it('an unexpected error is 500 without leaking its message', () => {
    expect(toHttpError(new Error('connection string postgres://secret'))).toEqual({
      status: 500,
      detail: { code: 'internal_error', message: 'internal error; it was logged' },
    });
  });

  it('renders each endpoint family in its own body shape, with the request id', () => {
    const detail: { code: ErrorCode; message: string; field: string } = { code: 'invalid_document', message: 'bad', field: 'document' };
    const at = (url: string) => ({ url, id: 'req-1' });
    expect(errorBody(at('/partner/v1/withdrawals/usdt'), detail)).toEqual({
      error: 'invalid_document',
      message: 'bad',
      field: 'document',
      request_id: 'req-1',
    });
    expect(errorBody(at('/partner/v1/customers/business'), detail)).toEqual({
      error: 'invalid_document',
      message: 'bad',
      field: 'document',
      request_id: 'req-1',
    });
    expect(errorBody(at('/partner/v1/pix-key/123'), detail)).toEqual({
      status: 'invalid_document',
      message: 'bad',
      field: 'document',
      request_id: 'req-1',
    });
    expect(errorBody(at('/partner/v1/pix-key'), { code: 'unauthorized', message: 'no key' })).toEqual({
      error: 'unauthorized',
      message: 'no key',
      request_id: 'req-1',
    });
  });

  // The answer the filter writes: status, headers and body, through a reply that records them.
  function answer(error: unknown) {
    const { reply, sent } = recordingReply();
    new HttpErrorFilter().catch(error, httpContext({ id: 'req-1', url: '/partner/v1/events', headers: {} }, reply));
    return sent;
  }

  it.each([
    ['a service that did not answer', new ServiceUnavailableError('withdrawals.command.create.v1', 'timed_out')],
    ['the database out of reach', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      "a readiness probe's 503 (/readyz on the operator port: a dependency down)",
      new ServiceUnavailableException({ status: 'error', error: { kafka: { status: 'down' } } }),
    ],
  ])('every 503 says when to come back: %s has Retry-After', (_label, error) => {
    expect(answer(error)).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  });

  it("a service's 429 (an SMS quota) says when it lifts: its retry_after_seconds as Retry-After, not in the body", () => {
    const quota = apiErrorOf({ code: 'sms_quota_exceeded', message: 'over the quota', retry_after_seconds: 3600 });
    const sent = answer(quota);
    expect(sent).toMatchObject({ status: 429, headers: { 'retry-after': '3600' } });
    expect(sent.body).toEqual({ error: 'sms_quota_exceeded', message: 'over the quota', request_id: 'req-1' });
  });
});
