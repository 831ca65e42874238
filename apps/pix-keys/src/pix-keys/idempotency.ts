import { PixKeyType } from '@partner/contracts';
import { requestFingerprint } from '@partner/db';
import { PixKeyOperation } from './idempotency-record.repository';

/**
 * What identifies "the same request" for an idempotency key: the operation and every field but the key.
 * The operation is part of it, so a key used for a creation cannot be replayed as a deletion. A request
 * without `name` keeps the fingerprint it had before the field existed, so keys bound then still replay; so does
 * a CPF key (`key_type` absent or `cpf`: the same request), while an EVP key's request is another one, and so is
 * one that asks for portability.
 */
export function fingerprintOf(
  operation: PixKeyOperation,
  document: string,
  name?: string,
  keyType: PixKeyType = 'cpf',
  portability = false,
): string {
  const fields = name === undefined ? [operation, document] : [operation, document, name];
  if (keyType !== 'cpf') fields.push(`key_type=${keyType}`);
  if (portability) fields.push('portability');
  return requestFingerprint(fields);
}
