// The client every connection of the specs names (kafkaClientFromEnv): see jest.platformatic.config.js.
process.env.KAFKA_CLIENT = 'platformatic';
