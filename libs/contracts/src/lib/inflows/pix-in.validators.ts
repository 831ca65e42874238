import { isValidCnpj } from '@brazilian-utils/brazilian-utils';
import { registerDecorator, ValidationOptions } from 'class-validator';
import { isCpf } from '@partner/validation';

/**
 * Pix identifiers as the SPI (Brazil's instant payment system) writes them. An end-to-end id is `E`,
 * the payer institution's 8-digit ISPB, the UTC minute it was made (yyyyMMddHHmm) and 11 alphanumerics.
 */
export const END_TO_END_ID_PATTERN = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;
export const ISPB_PATTERN = /^\d{8}$/;
export const BRANCH_CODE_PATTERN = /^\d{1,4}$/;
/** Account numbers travel in the SPI as digits only (check digit included), up to 20. */
export const ACCOUNT_NUMBER_PATTERN = /^\d{1,20}$/;

/**
 * A sender's tax id: a CPF (11 digits) or a CNPJ (14 characters: numeric, or the alphanumeric form the
 * Receita Federal issues since July 2026, upper case). Digits only, no mask; check digits must hold and
 * reserved sequences (all one digit) are refused.
 */
export function isCpfOrCnpj(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (/^\d{11}$/.test(value)) return isCpf(value);
  if (/^\d{14}$/.test(value)) return isValidCnpj(value);
  // The library also accepts masks and lower case; the API takes the canonical form only.
  if (/^[0-9A-Z]{12}\d{2}$/.test(value)) return isValidCnpj(value, { version: 2 });
  return false;
}

export function IsCpfOrCnpj(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCpfOrCnpj',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a valid CPF (11 digits) or CNPJ (14 characters)`, ...options },
      validator: { validate: (value: unknown) => isCpfOrCnpj(value) },
    });
}
