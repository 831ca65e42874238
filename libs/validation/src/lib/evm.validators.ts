import { registerDecorator, ValidationOptions } from 'class-validator';
import type * as Viem from 'viem';

// Loaded on the first address checked, not with this library: every app loads it (through the contracts'
// DTOs), and viem's index is about a tenth of an app's start-up CPU, for the few DTOs that hold an address.
let viem: typeof Viem | undefined;
const loadViem = (): typeof Viem => (viem ??= require('viem') as typeof Viem);

/**
 * An EVM address a withdrawal may be sent to: 0x + 40 hex digits; when mixed case, it must match its
 * EIP-55 checksum (a typo in a checksummed address is caught instead of losing the funds); never the
 * zero address, where funds are burnt.
 */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const { isAddress, zeroAddress } = loadViem();
  if (value.toLowerCase() === zeroAddress) return false;
  // EIP-55: an address in one case (all lower or all upper) carries no checksum; only mixed case must
  // match it. viem's strict mode checks every non-lowercase address, so the all-upper form goes loose.
  const hex = value.slice(2);
  return isAddress(value, { strict: hex !== hex.toUpperCase() });
}

/**
 * The one spelling of an address that every spelling of it shares: lower case. EIP-55 encodes its checksum
 * in the letter case only (viem's `isAddressEqual` compares the same way, through the checksummed form), so
 * `0xd8da...`, `0xD8DA...` and `0xd8dA...` are one destination. Lower case rather than the checksummed form
 * because SQL can compute it too (the fingerprint migration did); the address itself is stored as given.
 */
export function normalEvmAddress(address: string): string {
  return address.toLowerCase();
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
