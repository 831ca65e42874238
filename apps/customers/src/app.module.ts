import { serviceAppModule } from '@partner/platform';
import { BusinessCustomersModule } from './business-customers/business-customers.module';
import { CustomersConfig } from './config/customers.config';
import { NotificationsModule } from './notifications/notifications.module';

export const AppModule = serviceAppModule({
  name: 'customers',
  configClass: CustomersConfig,
  features: [NotificationsModule, BusinessCustomersModule],
});
