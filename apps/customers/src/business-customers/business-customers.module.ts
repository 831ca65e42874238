import { Module } from '@nestjs/common';
import { CreateBusinessCustomerHandler } from './create-business-customer.handler';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';

@Module({
  controllers: [CreateBusinessCustomerHandler],
  providers: [CustomerRepository, CreateBusinessCustomerUseCase],
})
export class BusinessCustomersModule {}
