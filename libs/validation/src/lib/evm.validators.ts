import { registerDecorator, ValidationOptions } from 'class-validator';
import { isAddress, zeroAddress } from 'viem';

/**
 * An EVM address a withdrawal may be sent to: 0x + 40 hex digits; when mixed case, it must match its
 * EIP-55 checksum (a typo in a checksummed address is caught instead of losing the funds); never the
 * zero address, where funds are burnt.
 */
export function isEvmAddress(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    isAddress(value, { strict: true }) &&
    value.toLowerCase() !== zeroAddress
  );
}

export function IsEvmAddress(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEvmAddress',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be a non-zero EVM address (0x + 40 hex digits, EIP-55 checksum when mixed case)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isEvmAddress(value) },
    });
}
