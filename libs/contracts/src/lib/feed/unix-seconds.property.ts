import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '../api-documentation';
import { IsInt } from 'class-validator';

/** A moment as the contract writes it: whole Unix seconds, documented and validated as such. */
export const UnixSeconds = (): PropertyDecorator => applyDecorators(ApiProperty({ type: 'integer', description: 'Unix seconds' }), IsInt());
