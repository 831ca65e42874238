import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { CreateBusinessCustomerHandler } from './create-business-customer.handler';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';
import { GetBusinessCustomerHandler } from './get-business-customer.handler';
import { GetBusinessCustomerUseCase } from './get-business-customer.use-case';
import { ListBusinessCustomersHandler } from './list-business-customers.handler';
import { ListBusinessCustomersUseCase } from './list-business-customers.use-case';

@Module({
  imports: [NotificationsModule],
  controllers: [CreateBusinessCustomerHandler, GetBusinessCustomerHandler, ListBusinessCustomersHandler],
  providers: [CustomerRepository, CreateBusinessCustomerUseCase, GetBusinessCustomerUseCase, ListBusinessCustomersUseCase],
})
export class BusinessCustomersModule {}
