export * from './lib/kafka.options';
export * from './lib/kafka.tokens';
export * from './lib/kafka.module';
export * from './lib/message-bus';
export * from './lib/handler.decorators';
export * from './lib/topic-admin';
export * from './lib/outbox';
