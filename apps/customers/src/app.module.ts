import { DynamicModule, Module } from '@nestjs/common';
import { serviceModule } from '@partner/platform';
import { BusinessCustomersModule } from './business-customers/business-customers.module';
import { CustomersConfig } from './config/customers.config';
import { NotificationsModule } from './notifications/notifications.module';

@Module({})
export class AppModule {
  static register(config: CustomersConfig): DynamicModule {
    return serviceModule(AppModule, {
      name: 'customers',
      configClass: CustomersConfig,
      config,
      features: [NotificationsModule, BusinessCustomersModule],
    });
  }
}
