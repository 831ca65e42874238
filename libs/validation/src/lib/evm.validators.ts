import { registerDecorator, ValidationOptions } from 'class-validator';
import { isAddress, zeroAddress } from 'viem';

/**
 * An EVM address a withdrawal may be sent to: 0x + 40 hex digits; when mixed case, it must match its
 * EIP-55 checksum (a typo in a checksummed address is caught instead of losing the funds); never the
 * zero address, where funds are burnt.
 */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || value.toLowerCase() === zeroAddress) return false;
  // EIP-55: an address in one case (all lower or all upper) carries no checksum; only mixed case must
  // match it. viem's strict mode checks every non-lowercase address, so the all-upper form goes loose.
  const hex = value.slice(2);
  return isAddress(value, { strict: hex !== hex.toUpperCase() });
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
