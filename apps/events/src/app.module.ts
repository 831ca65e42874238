import { serviceAppModule } from '@partner/platform';
import { EventsConfig } from './config/events.config';
import { FeedModule } from './feed/feed.module';

export const AppModule = serviceAppModule({ name: 'events', configClass: EventsConfig, features: [FeedModule] });
