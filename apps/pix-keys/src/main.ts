import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { PixKeysConfig } from './config/pix-keys.config';

runMain(async () => {
  const config = loadConfig(PixKeysConfig);
  await bootstrapService('pix-keys', AppModule.register(config), config);
});
