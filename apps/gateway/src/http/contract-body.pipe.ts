import { PipeTransform } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { validateContract } from '@partner/validation';
import { apiErrorOf } from './api-error';

/** Validates a body or query with the contract class the services validate with too. */
export class ContractPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly cls: ClassConstructor<T>) {}

  transform(value: unknown): T {
    const result = validateContract(this.cls, value ?? {});
    if (!result.ok) throw apiErrorOf(result.error);
    return result.value;
  }
}
