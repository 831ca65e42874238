import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { CreateBusinessCustomerHandler } from './create-business-customer.handler';
import { CreateBusinessCustomerUseCase } from './create-business-customer.use-case';
import { CustomerRepository } from './customer.repository';

@Module({
  imports: [NotificationsModule],
  controllers: [CreateBusinessCustomerHandler],
  providers: [CustomerRepository, CreateBusinessCustomerUseCase],
})
export class BusinessCustomersModule {}
