import { testPartnerId } from '@partner/testing';
import { fingerprintOf, replayOf } from './idempotency';
import { IdempotencyRecord } from './idempotency-record.repository';

const record = (fingerprint: string): IdempotencyRecord => ({
  partnerId: testPartnerId('c6b0f8f6-3f6e-4d38-9d7f-5d1c3a9b2f10'),
  idempotencyKey: 'key-1',
  operation: 'create',
  document: '52998224725',
  fingerprint,
  answer: 'accepted',
  pixKeyId: null,
});

describe('fingerprintOf', () => {
  it('is the same for the same operation and document, and differs when either differs', () => {
    expect(fingerprintOf('create', '52998224725')).toBe(fingerprintOf('create', '52998224725'));
    expect(fingerprintOf('create', '52998224725')).not.toBe(fingerprintOf('delete', '52998224725'));
    expect(fingerprintOf('create', '52998224725')).not.toBe(fingerprintOf('create', '11144477735'));
  });
});

describe('replayOf', () => {
  it('answers a retry of the same request with the first answer', () => {
    const fp = fingerprintOf('create', '52998224725');
    expect(replayOf(record(fp), fp)).toEqual({ ok: true, data: { status: 'accepted' } });
  });

  it('refuses the key reused for another request (a deletion replayed on a creation key included)', () => {
    const reply = replayOf(record(fingerprintOf('create', '52998224725')), fingerprintOf('delete', '52998224725'));
    expect(reply).toMatchObject({ ok: false, error: { code: 'idempotency_key_reused', field: 'idempotency_key' } });
  });
});
