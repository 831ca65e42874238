import { DynamicModule, Global, Module } from '@nestjs/common';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { PixKeysConfig } from './config/pix-keys.config';
import { PrismaService } from './prisma/prisma.service';
import { PixKeysModule } from './pix-keys/pix-keys.module';

@Global()
@Module({})
export class AppModule {
  static register(config: PixKeysConfig): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: PixKeysConfig, useValue: config }, PrismaService],
      exports: [PixKeysConfig, PrismaService],
      imports: [loggingModule('pix-keys', config.LOG_LEVEL), serviceHealthModule('pix-keys', PrismaService), PixKeysModule],
    };
  }
}
