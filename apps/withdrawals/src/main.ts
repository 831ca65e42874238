import './tracing';
import '@partner/platform/preload';
import 'reflect-metadata';
import { loadConfig } from '@partner/config';
import { bootstrapService, runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { WithdrawalsConfig } from './config/withdrawals.config';

runMain(async () => {
  const config = loadConfig(WithdrawalsConfig);
  // A payout worker consumes nothing; the instances that take the requests run without payouts (ADR 0031).
  await bootstrapService('withdrawals', AppModule.register(config), config, {
    worker: config.PAYOUTS_ONLY ? 'PAYOUTS_ONLY: payout rounds and reconciliation' : undefined,
  });
});
