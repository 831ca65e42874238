import { DynamicModule, Global, Module } from '@nestjs/common';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { CustomersConfig } from './config/customers.config';
import { PrismaService } from './prisma/prisma.service';
import { BusinessCustomersModule } from './business-customers/business-customers.module';

@Global()
@Module({})
export class AppModule {
  static register(config: CustomersConfig): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: CustomersConfig, useValue: config }, PrismaService],
      exports: [CustomersConfig, PrismaService],
      imports: [loggingModule('customers', config.LOG_LEVEL), serviceHealthModule('customers', PrismaService), BusinessCustomersModule],
    };
  }
}
