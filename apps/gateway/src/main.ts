import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@partner/config';
import { ensureTopics } from '@partner/kafka';
import { runMain } from '@partner/platform';
import { AppModule } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { HttpErrorFilter } from './http/http-error.filter';

runMain(async () => {
  const config = loadConfig(GatewayConfig);
  await ensureTopics({ brokers: config.KAFKA_BROKERS, clientId: `gateway-admin-${process.pid}` }, config.KAFKA_PARTITIONS);
  const adapter = new FastifyAdapter({ bodyLimit: config.BODY_LIMIT_BYTES, trustProxy: true });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new HttpErrorFilter());
  app.enableShutdownHooks();
  await app.listen({ port: config.PORT, host: config.HOST });
  app.get(Logger).log(`gateway listening on ${await app.getUrl()}${config.SANDBOX ? ' (sandbox on)' : ''}`);
});
