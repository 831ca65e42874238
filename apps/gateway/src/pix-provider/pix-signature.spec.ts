import { pixSignature, signatureProblem } from './pix-signature';

const secret = 's'.repeat(32);
const body = Buffer.from('{"status":"processing"}');
const now = 1_764_130_000;
const header = (t: number, b: Buffer | string = body, s = secret) => `t=${t},v1=${pixSignature(s, t, b)}`;

describe('signatureProblem', () => {
  it('accepts the HMAC-SHA256 of `<t>.<body>` within 300 s either way', () => {
    expect(signatureProblem([secret], header(now), body, now)).toBeUndefined();
    expect(signatureProblem([secret], header(now - 300), body, now)).toBeUndefined();
    expect(signatureProblem([secret], header(now + 300), body, now)).toBeUndefined();
  });

  it('matches a signature computed with openssl (docs/api.md example)', () => {
    // printf '%s' '1764130000.{"status":"processing"}' | openssl dgst -sha256 -hmac ssssssssssssssssssssssssssssssss
    expect(pixSignature(secret, now, body)).toBe('5ca5c9f0cfa80e3fc4e0684e19d536660287aaf15b31dda6201f5c6af1030f9c');
  });

  it('refuses each way a signature can be wrong, saying which', () => {
    expect(signatureProblem([''], header(now), body, now)).toMatch(/not configured/);
    expect(signatureProblem([secret], undefined, body, now)).toBe('missing X-Pix-Signature');
    expect(signatureProblem([secret], 'v1=abc', body, now)).toMatch(/must be t=/);
    expect(signatureProblem([secret], header(now - 301), body, now)).toMatch(/more than 300 s/);
    expect(signatureProblem([secret], header(now, '{"status":"credited"}'), body, now)).toBe('X-Pix-Signature does not match the body');
    expect(signatureProblem([secret], header(now, body, 'x'.repeat(32)), body, now)).toBe('X-Pix-Signature does not match the body');
  });

  it('takes the previous secret too during a rotation, and neither secret alone once the current one is unset', () => {
    const previous = 'p'.repeat(32);
    expect(signatureProblem([secret, previous], header(now, body, previous), body, now)).toBeUndefined();
    expect(signatureProblem([secret, previous], header(now, body, secret), body, now)).toBeUndefined();
    expect(signatureProblem([secret, previous], header(now, body, 'x'.repeat(32)), body, now)).toBe(
      'X-Pix-Signature does not match the body',
    );
    expect(signatureProblem([secret, ''], header(now, body, previous), body, now)).toBe('X-Pix-Signature does not match the body');
    expect(signatureProblem(['', previous], header(now, body, previous), body, now)).toMatch(/not configured/);
  });

  describe('is over the bytes received, not over their text', () => {
    const raw = Buffer.from('{"sender_name":"João"}', 'utf8');
    // The same JSON value, "ã" written as the escape \u00e3: other bytes.
    const escaped = Buffer.from('{"sender_name":"Jo\\u00e3o"}', 'utf8');
    const reserialised = (bytes: Buffer) => Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8'))), 'utf8');

    it('verifies a signature over the exact bytes, raw UTF-8 or escaped', () => {
      expect(raw.includes(Buffer.from([0xc3, 0xa3]))).toBe(true);
      expect(signatureProblem([secret], header(now, raw), raw, now)).toBeUndefined();
      expect(signatureProblem([secret], header(now, escaped), escaped, now)).toBeUndefined();
    });

    it('refuses a signature over a re-serialisation whose bytes differ, though the JSON value is the same', () => {
      expect(JSON.parse(escaped.toString())).toEqual(JSON.parse(raw.toString()));
      expect(reserialised(escaped).equals(escaped)).toBe(false);
      expect(signatureProblem([secret], header(now, reserialised(escaped)), escaped, now)).toBe('X-Pix-Signature does not match the body');
      expect(signatureProblem([secret], header(now, escaped), raw, now)).toBe('X-Pix-Signature does not match the body');
    });

    it('accepts a signature over a re-serialisation only when its bytes are the received ones', () => {
      expect(reserialised(raw).equals(raw)).toBe(true);
      expect(signatureProblem([secret], header(now, reserialised(raw)), raw, now)).toBeUndefined();
    });

    it('tells apart bodies whose bytes differ but decode to the same text (invalid UTF-8 becomes U+FFFD either way)', () => {
      const ff = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
      const fe = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]);
      expect(ff.toString('utf8')).toBe(fe.toString('utf8'));
      expect(signatureProblem([secret], header(now, ff), fe, now)).toBe('X-Pix-Signature does not match the body');
    });
  });
});
