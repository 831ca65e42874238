import { registerDecorator, ValidationOptions } from 'class-validator';
import { isCnpj, isCpf } from '@partner/validation';

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
 * Receita Federal issues since July 2026), unformatted; the same rules as every CPF and CNPJ of the API.
 */
export function isCpfOrCnpj(value: unknown): value is string {
  return isCpf(value) || isCnpj(value);
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

/**
 * A Pix key as DICT writes it (its `Key` by `KeyType`): a CPF (11 digits) or CNPJ (14 characters), a
 * phone in E.164 (`+5511987654321`), an e-mail in lower case (up to 77 characters), or a random key
 * (EVP: a lower-case UUID). What the SPI carries for a Pix sent by key (`method: dict`).
 */
const PHONE_KEY = /^\+[1-9]\d{1,14}$/;
const EMAIL_KEY = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EVP_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MAX_PIX_KEY_LENGTH = 77;

export function isPixKey(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PIX_KEY_LENGTH) return false;
  return isCpfOrCnpj(value) || PHONE_KEY.test(value) || EMAIL_KEY.test(value) || EVP_KEY.test(value);
}

export function IsPixKey(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPixKey',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a Pix key: a CPF, a CNPJ, a phone in E.164 (+5511987654321), a lower-case e-mail (up to ${MAX_PIX_KEY_LENGTH} characters) or a random key (UUID)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isPixKey(value) },
    });
}
