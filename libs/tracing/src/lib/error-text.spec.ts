import { errorText, MAX_ERROR_TEXT } from './error-text';

describe('errorText', () => {
  it('masks the identifiers a counterparty quotes, on one line', () => {
    const text = errorText('550 5.1.1 <ana@example.com>:\n  mailbox unavailable for CPF 123.456.789-09');
    expect(text).not.toContain('ana@example.com');
    expect(text).not.toContain('123.456.789-09');
    expect(text).not.toContain('\n');
    expect(text).toMatch(/^550 5\.1\.1 .+ mailbox unavailable for CPF .+$/);
  });

  it('names an Error with its system code', () => {
    const error = Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' });
    expect(errorText(error)).toBe('Error: connect refused (ECONNREFUSED)');
  });

  it('bounds a long text', () => {
    const text = errorText('x'.repeat(1_000));
    expect(text).toHaveLength(MAX_ERROR_TEXT);
    expect(text.endsWith('…')).toBe(true);
  });
});
