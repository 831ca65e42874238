import { DynamicModule, Global, Module } from '@nestjs/common';
import { loggingModule, serviceHealthModule } from '@partner/platform';
import { EventsConfig } from './config/events.config';
import { FeedModule } from './feed/feed.module';
import { PrismaService } from './prisma/prisma.service';

@Global()
@Module({})
export class AppModule {
  static register(config: EventsConfig): DynamicModule {
    return {
      module: AppModule,
      providers: [{ provide: EventsConfig, useValue: config }, PrismaService],
      exports: [EventsConfig, PrismaService],
      imports: [loggingModule('events', config.LOG_LEVEL), serviceHealthModule('events', PrismaService), FeedModule],
    };
  }
}
