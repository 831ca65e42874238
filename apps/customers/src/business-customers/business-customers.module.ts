import { Module } from '@nestjs/common';
import { CreateBusinessCustomerHandler } from './create-business-customer.handler';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';
import { GetBusinessCustomerHandler } from './get-business-customer.handler';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';

@Module({
  controllers: [CreateBusinessCustomerHandler, GetBusinessCustomerHandler],
  providers: [CustomerRepository, CreateBusinessCustomerUseCase, GetBusinessCustomerUseCase],
})
export class BusinessCustomersModule {}
