import { registerDecorator, ValidationOptions } from 'class-validator';
// The full metadata: it checks each country's number patterns, where the default (min) set checks
// little more than the length (+55 11 8765-4321, a mobile missing its leading 9, would pass).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A phone number exactly as libphonenumber writes it in E.164 (`+5511987654321`), and a valid number
 * of its country. libphonenumber also reads other spellings of a number (spaces, dashes, brackets, a
 * trunk zero after the country code as in `+55011...`, an extension, full-width digits), so a value
 * is taken only when it is already the canonical form it formats: the stored number is the canonical one.
 */
export function isE164Phone(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const phone = parsePhoneNumberFromString(value);
  return phone !== undefined && phone.number === value && phone.isValid();
}

/**
 * The country (ISO 3166-1 alpha-2, `BR`) a valid number belongs to, as libphonenumber reads it; undefined for
 * a value that is not one, or a number shared by several countries with no way to tell (a non-geographic
 * +800 say).
 */
export function phoneCountryOf(value: string): string | undefined {
  return parsePhoneNumberFromString(value)?.country;
}

export function IsE164Phone(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isE164Phone',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} is invalid: a phone is a valid number in E.164 format, such as +5511987654321 (no spaces or punctuation, no trunk 0)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isE164Phone(value) },
    });
}
