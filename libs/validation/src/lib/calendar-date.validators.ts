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
