import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { WithdrawalsConfig } from './config/withdrawals.config';

runMain(async () => {
  const config = loadConfig(WithdrawalsConfig);
  await bootstrapService('withdrawals', AppModule.register(config), config);
});
