import { IsPastCalendarDate, isCalendarDate, isDateTime, isPastCalendarDate } from './calendar-date.validators';
import { isJsonObjectWithin } from './json-object.validators';
import { validateContract } from './validate-contract';

describe('isCalendarDate', () => {
  it.each(['1985-04-12', '2024-02-29', '2000-02-29', '1900-01-01', '2023-12-31'])('accepts the real date %s', (date) =>
    expect(isCalendarDate(date)).toBe(true),
  );

  it.each([
    ['2023-02-30', 'February 30'],
    ['2023-02-29', 'not a leap year'],
    ['1900-02-29', 'century not divisible by 400'],
    ['2023-04-31', 'April has 30 days'],
    ['2023-13-01', 'month 13'],
    ['2023-00-10', 'month 0'],
    ['2023-01-00', 'day 0'],
    ['2023-1-5', 'not zero-padded'],
    ['12/04/1985', 'Brazilian format'],
    ['1985-04-12T00:00:00Z', 'a timestamp'],
    ['', 'empty'],
  ])('refuses %s (%s)', (date) => expect(isCalendarDate(date)).toBe(false));

  it('refuses non-strings', () => expect(isCalendarDate(19850412)).toBe(false));
});

describe('isPastCalendarDate', () => {
  const now = new Date('2026-07-15T12:00:00Z');

  it('accepts dates from the earliest one to yesterday', () => {
    expect(isPastCalendarDate('1900-01-01', '1900-01-01', now)).toBe(true);
    expect(isPastCalendarDate('2026-07-14', '1900-01-01', now)).toBe(true);
  });

  it('refuses today, the future and dates before the earliest', () => {
    expect(isPastCalendarDate('2026-07-15', '1900-01-01', now)).toBe(false);
    expect(isPastCalendarDate('2030-01-01', '1900-01-01', now)).toBe(false);
    expect(isPastCalendarDate('1899-12-31', '1900-01-01', now)).toBe(false);
    expect(isPastCalendarDate('2026-02-30', '1900-01-01', now)).toBe(false);
  });

  it('decorates a property with a message naming the rule', () => {
    class Sample {
      @IsPastCalendarDate('1900-01-01') birth_date!: string;
    }
    expect(validateContract(Sample, { birth_date: '2999-01-01' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        field: 'birth_date',
        message: 'birth_date must be a real date in the past, YYYY-MM-DD, not before 1900-01-01',
      },
    });
    expect(validateContract(Sample, { birth_date: '1985-04-12' }).ok).toBe(true);
  });
});

describe('isJsonObjectWithin', () => {
  it('accepts objects up to the size, counted in UTF-8 bytes', () => {
    expect(isJsonObjectWithin({}, 2)).toBe(true);
    expect(isJsonObjectWithin({ a: 'x'.repeat(10) }, 18)).toBe(true); // {"a":"xxxxxxxxxx"} is 18 bytes
    expect(isJsonObjectWithin({ a: 'x'.repeat(11) }, 18)).toBe(false);
    expect(isJsonObjectWithin({ a: 'ç'.repeat(5) }, 14)).toBe(false); // 5 characters, 10 bytes: 18 in all
  });

  it.each([[null], [[]], [[1, 2]], ['text'], [3], [undefined]])('refuses %p', (value) =>
    expect(isJsonObjectWithin(value, 1000)).toBe(false),
  );
});

describe('isDateTime', () => {
  it.each(['2026-11-26T03:00:00Z', '2026-11-26T00:00:00.250-03:00', '2024-02-29T23:59:59.9+14:00', '1970-01-01T00:00:00.000Z'])(
    'accepts %s',
    (value) => expect(isDateTime(value)).toBe(true),
  );

  it.each([
    ['2026-11-26', 'a date without time'],
    ['2026-11-26T03:00:00', 'no offset'],
    ['2026-11-26 03:00:00Z', 'a space for T'],
    ['2026-02-30T00:00:00Z', 'a day that does not exist'],
    ['2026-11-26T24:00:00Z', 'hour 24'],
    ['2026-11-26T03:00:00.1234Z', 'finer than milliseconds'],
    ['2026-11-26T03:00:00z', 'lower-case zone'],
    ['1795315285', 'Unix seconds'],
    ['', 'empty'],
  ])('refuses %s (%s)', (value) => expect(isDateTime(value)).toBe(false));
});
