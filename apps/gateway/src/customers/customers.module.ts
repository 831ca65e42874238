import { Module } from '@nestjs/common';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomersController } from './customers.controller';

/** POST /partner/v1/customers/business (spec 4.2). */
@Module({ controllers: [CustomersController], providers: [CreateBusinessCustomerUseCase] })
export class CustomersModule {}
