import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { InflowsConfig } from './config/inflows.config';

runMain(async () => {
  const config = loadConfig(InflowsConfig);
  await bootstrapService('inflows', AppModule.register(config), config);
});
