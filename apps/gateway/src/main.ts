import './tracing';
import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@partner/config';
import { runMain } from '@partner/platform';
import { GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './gateway-app';

runMain(async () => {
  const config = loadConfig(GatewayConfig);
  const app = await createGatewayApp(config);
  await app.listen({ port: config.PORT, host: config.HOST });
  app.get(Logger).log(`gateway listening on ${await app.getUrl()}${config.SANDBOX ? ' (sandbox on)' : ''}`);
});
