import { registerDecorator, ValidationOptions } from 'class-validator';
// The full metadata: it checks each country's number patterns, where the default (min) set checks
// little more than the length (+55 11 8765-4321, a mobile missing its leading 9, would pass).
import { isValidPhoneNumber } from 'libphonenumber-js/max';

/** E.164 as written on the wire: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number in E.164 form (`+5511987654321`) that is a valid number of its country according to
 * libphonenumber. Spaces, dashes and brackets are refused: the stored number is the canonical one.
 */
export function isE164Phone(value: unknown): value is string {
  return typeof value === 'string' && E164_SHAPE.test(value) && isValidPhoneNumber(value);
}

export function IsE164Phone(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isE164Phone',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} is invalid: a phone is a valid number in E.164 format, such as +5511987654321`,
        ...options,
      },
      validator: { validate: (value: unknown) => isE164Phone(value) },
    });
}
