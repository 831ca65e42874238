// The function's own entry point, not the package's 640 kB index (see brazil.validators.ts).
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** 12 characters of root and branch (digits or, since IN RFB 2.229/2024, uppercase letters), then 2 check digits. */
const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;

/**
 * A CNPJ as the API takes it: exactly 14 characters, unformatted, numeric or alphanumeric (the
 * Receita Federal issues alphanumeric ones from July 2026, IN RFB 2.229/2024). The mod-11 check digits
 * are verified by @brazilian-utils (its version 2 covers both forms: each character counts as its
 * ASCII code minus 48, so digits keep their value). A root and branch made of one repeated character
 * (11111111111180, AAAAAAAAAAAA45) passes the checksum but is never issued, so it is refused; the
 * library only refuses the numeric ones of 14 equal digits.
 */
export function isCnpj(value: unknown): value is string {
  if (typeof value !== 'string' || !CNPJ_SHAPE.test(value)) return false;
  if (/^(.)\1{11}/.test(value)) return false;
  return isValidCnpj(value, { version: 2 });
}

export const CNPJ_RULE = '14 characters, unformatted: 12 digits or uppercase letters, then 2 check digits';

export function IsCnpj(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCnpj',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} is invalid: a CNPJ is ${CNPJ_RULE}, with valid check digits`, ...options },
      validator: { validate: (value: unknown) => isCnpj(value) },
    });
}
