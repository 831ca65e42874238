import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { EventsConfig } from './config/events.config';

runMain(async () => {
  const config = loadConfig(EventsConfig);
  await bootstrapService('events', AppModule.register(config), config);
});
