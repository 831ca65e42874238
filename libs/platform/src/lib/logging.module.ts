import { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';

/**
 * Structured JSON logs (pino). Secrets never reach the log: API and admin keys are redacted from
 * every logged request. Set LOG_PRETTY=true for human-readable lines in development.
 */
export function loggingModule(service: string, level: string): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      name: service,
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers["x-admin-key"]', 'req.headers.authorization'], censor: '[redacted]' },
      transport: process.env.LOG_PRETTY === 'true' ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    },
  });
}
