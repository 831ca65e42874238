import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { CustomersConfig } from './config/customers.config';

runMain(async () => {
  const config = loadConfig(CustomersConfig);
  await bootstrapService('customers', AppModule.register(config), config);
});
