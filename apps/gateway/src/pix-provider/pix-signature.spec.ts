import { pixSignature, signatureProblem } from './pix-signature';

const secret = 's'.repeat(32);
const body = '{"status":"processing"}';
const now = 1_764_130_000;
const header = (t: number, b = body, s = secret) => `t=${t},v1=${pixSignature(s, t, b)}`;

describe('signatureProblem', () => {
  it('accepts the HMAC-SHA256 of `<t>.<body>` within 300 s either way', () => {
    expect(signatureProblem(secret, header(now), body, now)).toBeUndefined();
    expect(signatureProblem(secret, header(now - 300), body, now)).toBeUndefined();
    expect(signatureProblem(secret, header(now + 300), body, now)).toBeUndefined();
  });

  it('matches a signature computed with openssl (docs/api.md example)', () => {
    // printf '%s' '1764130000.{"status":"processing"}' | openssl dgst -sha256 -hmac ssssssssssssssssssssssssssssssss
    expect(pixSignature(secret, now, body)).toBe('5ca5c9f0cfa80e3fc4e0684e19d536660287aaf15b31dda6201f5c6af1030f9c');
  });

  it('refuses each way a signature can be wrong, saying which', () => {
    expect(signatureProblem('', header(now), body, now)).toMatch(/not configured/);
    expect(signatureProblem(secret, undefined, body, now)).toBe('missing X-Pix-Signature');
    expect(signatureProblem(secret, 'v1=abc', body, now)).toMatch(/must be t=/);
    expect(signatureProblem(secret, header(now - 301), body, now)).toMatch(/more than 300 s/);
    expect(signatureProblem(secret, header(now, '{"status":"credited"}'), body, now)).toBe('X-Pix-Signature does not match the body');
    expect(signatureProblem(secret, header(now, body, 'x'.repeat(32)), body, now)).toBe('X-Pix-Signature does not match the body');
  });
});
