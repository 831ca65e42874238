import { PipeTransform } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { ERROR_CODES } from '@partner/contracts';
import { INVALID_REQUEST, validateCodedContract } from '@partner/validation';
import { apiErrorOf } from './api-error';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/**
 * Validates a body or query with the contract class the services validate with too. Its failures carry
 * an ErrorCode (the contract classes name codes through their family's helper, codesOf), so each maps
 * to its status with no fallback.
 */
export class ContractPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly cls: ClassConstructor<T>) {}

  transform(value: unknown): T {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      throw apiErrorOf({ code: INVALID_REQUEST, message: `request is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
    }
    const result = validateCodedContract(this.cls, value ?? {}, ERROR_CODES);
    if (!result.ok) throw apiErrorOf(result.error);
    return result.value;
  }
}
