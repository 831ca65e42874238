import { registerDecorator, ValidationOptions } from 'class-validator';

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` naming a day that exists (2023-02-30 and 2023-13-01 do not). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_SHAPE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls over (Feb 30 becomes Mar 2): the day exists only if nothing rolled.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A real calendar date from `earliest` (inclusive) to before today. Today is the UTC date, so around
 * midnight a date may count as past a few hours early or late for a user in Brazil (UTC-3); for a
 * birth date that is harmless.
 */
export function isPastCalendarDate(value: unknown, earliest: string, now: Date = new Date()): value is string {
  // Zero-padded ISO dates compare correctly as strings.
  return isCalendarDate(value) && value >= earliest && value < now.toISOString().slice(0, 10);
}

/** A real past date in `YYYY-MM-DD`, not before `earliest` (e.g. a birth date). */
export function IsPastCalendarDate(earliest: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPastCalendarDate',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a real date in the past, YYYY-MM-DD, not before ${earliest}`,
        ...options,
      },
      validator: { validate: (value: unknown) => isPastCalendarDate(value, earliest) },
    });
}

const DATE_TIME_SHAPE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,3})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * An ISO 8601 date-time with its offset, to the millisecond (RFC 3339's profile: `2026-11-26T03:00:00Z`,
 * `2026-11-26T00:00:00.250-03:00`), on a day that exists. Without an offset the instant would depend on
 * the server's time zone, and finer fractions than the stored milliseconds would be silently cut.
 */
export function isDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME_SHAPE.exec(value);
  return match !== null && isCalendarDate(match[1]) && Number.isFinite(Date.parse(value));
}

export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateTime',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be an ISO 8601 date-time with its offset, at most millisecond precision (2026-11-26T03:00:00Z, 2026-11-26T00:00:00.250-03:00)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isDateTime(value) },
    });
}
