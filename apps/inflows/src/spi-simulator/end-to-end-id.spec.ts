import { END_TO_END_ID_PATTERN } from '@partner/contracts';
import { newEndToEndId, utcMinute } from './end-to-end-id';

describe('end-to-end id', () => {
  const at = new Date('2026-11-22T23:59:58.999Z');

  it('is E + payer ISPB + UTC yyyyMMddHHmm + 11 alphanumerics: 32 characters', () => {
    const id = newEndToEndId('60701190', at);

    expect(id).toHaveLength(32);
    expect(id[0]).toBe('E');
    expect(id.slice(1, 9)).toBe('60701190');
    expect(id.slice(9, 21)).toBe('202611222359');
    expect(id.slice(21)).toMatch(/^[A-Za-z0-9]{11}$/);
    expect(id).toMatch(END_TO_END_ID_PATTERN);
  });

  it('writes the minute in UTC whatever the offset the date was made with', () => {
    // 21:05 in São Paulo (UTC-3) is 00:05 the next day in UTC.
    expect(utcMinute(new Date('2026-01-31T21:05:00-03:00'))).toBe('202602010005');
    expect(utcMinute(new Date('2026-03-04T05:06:07Z'))).toBe('202603040506');
  });

  it('keeps an ISPB of zeros (Banco do Brasil) intact', () => {
    expect(newEndToEndId('00000000', at).slice(1, 9)).toBe('00000000');
  });

  it('differs on every call in the same minute, by its random suffix', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newEndToEndId('18236120', at)));
    expect(ids.size).toBe(2000);
  });

  it.each(['6070119', '607011900', '6070119A', ''])('refuses a payer ISPB %p that is not 8 digits', (ispb) => {
    expect(() => newEndToEndId(ispb, at)).toThrow(/8 digits/);
  });
});
