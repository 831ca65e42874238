import { keccak_256 } from '@noble/hashes/sha3';
import { registerDecorator, ValidationOptions } from 'class-validator';
import { LRUCache } from 'lru-cache';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/**
 * Answers for mixed-case addresses, as viem kept them: keccak costs about 20 µs, a lookup well under 1, and
 * one withdrawal is checked by the gateway and again by its service, mostly to the same few addresses.
 * Bounded, least recently used answer out first: about 130 kB at most.
 */
const checksumAnswers = new LRUCache<string, boolean>({ max: 1024 });

/**
 * An EVM address a withdrawal may be sent to: 0x + 40 hex digits; when mixed case, it must match its
 * EIP-55 checksum (a typo in a checksummed address is caught instead of losing the funds); never the
 * zero address, where funds are burnt. EIP-55: an address in one case (all lower or all upper) carries
 * no checksum; only mixed case must match it.
 *
 * The checksum on @noble/hashes' keccak (what viem's `isAddress` uses under it) rather than viem itself:
 * viem's index loads hundreds of modules, megabytes of heap in every app, for this one check;
 * evm.validators.spec.ts holds it to viem's answers.
 */
export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) return false;
  const hex = value.slice(2);
  const lower = hex.toLowerCase();
  if (/^0{40}$/.test(hex)) return false;
  if (hex === lower || hex === hex.toUpperCase()) return true;
  let valid = checksumAnswers.get(hex);
  if (valid === undefined) {
    valid = eip55(lower) === hex;
    checksumAnswers.set(hex, valid);
  }
  return valid;
}

/** The EIP-55 spelling of an address given in lower case without 0x: a letter is upper case where the keccak-256 of the text has a nibble of 8 or more. */
function eip55(lower: string): string {
  const hash = keccak_256(lower);
  let out = '';
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 0x0f;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
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
