import { DynamicModule, Module } from '@nestjs/common';
import { serviceModule } from '@partner/platform';
import { EventsConfig } from './config/events.config';
import { FeedModule } from './feed/feed.module';

@Module({})
export class AppModule {
  static register(config: EventsConfig): DynamicModule {
    return serviceModule(AppModule, {
      name: 'events',
      configClass: EventsConfig,
      config,
      features: [FeedModule],
    });
  }
}
