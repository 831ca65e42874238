import { PipeTransform } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { INVALID_REQUEST, validateContract } from '@partner/validation';
import { apiErrorOf, apiErrorOfInvalid } from './api-error';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/** Validates a body or query with the contract class the services validate with too. */
export class ContractPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly cls: ClassConstructor<T>) {}

  transform(value: unknown): T {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      throw apiErrorOf({ code: INVALID_REQUEST, message: `request is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
    }
    const result = validateContract(this.cls, value ?? {});
    if (!result.ok) throw apiErrorOfInvalid(result.error);
    return result.value;
  }
}
