import { Module } from '@nestjs/common';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomersController } from './customers.controller';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';

/** POST /partner/v1/customers/business (docs/api.md: "Business customers"); GET /partner/v1/customers/business/{id}. */
@Module({ controllers: [CustomersController], providers: [CreateBusinessCustomerUseCase, GetBusinessCustomerUseCase] })
export class CustomersModule {}
