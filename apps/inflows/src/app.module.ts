import { DynamicModule, Global, Module } from '@nestjs/common';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { InflowsConfig } from './config/inflows.config';
import { PrismaService } from './prisma/prisma.service';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';

@Global()
@Module({})
export class AppModule {
  static register(config: InflowsConfig): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: InflowsConfig, useValue: config }, PrismaService],
      exports: [InflowsConfig, PrismaService],
      imports: [loggingModule('inflows', config.LOG_LEVEL), serviceHealthModule('inflows', PrismaService), PixInflowsModule],
    };
  }
}
