// The function's own entry point: the package's index is one large file that would cost every app megabytes of heap.
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** A CPF as the API takes it: exactly 11 digits, valid check digits, not a repeated-digit sequence. */
export function isCpf(value: unknown): value is string {
  return typeof value === 'string' && /^\d{11}$/.test(value) && isValidCpf(value);
}

export function IsCpf(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCpf',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a valid CPF of 11 digits`, ...options },
      validator: { validate: (value: unknown) => isCpf(value) },
    });
}
