import { Module } from '@nestjs/common';

/** POST /partner/v1/customers/business (spec 4.2). */
@Module({ controllers: [], providers: [] })
export class CustomersModule {}
