import './tracing';
import '@partner/platform/preload';
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
  const logger = app.get(Logger);
  logger.log(`gateway listening on ${await app.getUrl()}${config.SANDBOX ? ' (sandbox on)' : ''}`);
  if (config.ADMIN_PORT > 0) logger.log(`operator API, /readyz and /metrics on http://${config.HOST}:${config.ADMIN_PORT}`);
  else if (!config.SANDBOX)
    logger.warn('ADMIN_PORT=0: the operator API, /readyz and /metrics answer on PORT too; never expose this port to partners');
});
