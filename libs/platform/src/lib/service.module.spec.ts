import { Injectable, Module } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { loadConfig, ServiceConfig } from '@partner/config';
import { ServiceName } from '@partner/contracts';
import { Database, UnitOfWork } from '@partner/db';
import { ConsumerGroups, MessageBus, OutboxRelay } from '@partner/kafka';
import { Logger } from 'nestjs-pino';
import { METRICS_REGISTRY } from './metrics.module';
import { serviceAppModule } from './service.module';

// Unit: what serviceModule provides, compiled without starting (no broker, no database is reached).
class SampleConfig extends ServiceConfig {}

/** A service's own module, which sees what the root provides without importing it. */
@Injectable()
class SampleUseCase {
  constructor(
    readonly config: SampleConfig,
    // A real pool, never used: it connects on a first query only, and nothing here queries.
    readonly db: Database,
  ) {}
}
@Module({ providers: [SampleUseCase], exports: [SampleUseCase] })
class SampleFeatureModule {}

const config = loadConfig(SampleConfig, {});

async function composed(name: ServiceName): Promise<TestingModule> {
  const root = serviceAppModule({ name, configClass: SampleConfig, features: [SampleFeatureModule] }).register(config);
  return Test.createTestingModule({ imports: [root] }).compile();
}

const has = (moduleRef: TestingModule, token: unknown): boolean => {
  try {
    moduleRef.get(token as never, { strict: false });
    return true;
  } catch {
    return false;
  }
};

describe('serviceAppModule', () => {
  it("gives the service's own modules its config and its database, one instance each", async () => {
    const moduleRef = await composed('events');
    try {
      const useCase = moduleRef.get(SampleUseCase);
      expect(useCase.config).toBe(config);
      expect(useCase.db).toBe(moduleRef.get(Database));
    } finally {
      await moduleRef.close();
    }
  });

  it('composes logging, health and metrics for every service', async () => {
    const moduleRef = await composed('events');
    try {
      expect([Logger, ConsumerGroups, METRICS_REGISTRY].map((token) => has(moduleRef, token))).toEqual([true, true, true]);
    } finally {
      await moduleRef.close();
    }
  });

  it('adds the producer and the outbox (writer and relay) to a service the catalogue gives an outbox', async () => {
    const moduleRef = await composed('withdrawals');
    try {
      expect([MessageBus, OutboxRelay, UnitOfWork].map((token) => has(moduleRef, token))).toEqual([true, true, true]);
    } finally {
      await moduleRef.close();
    }
  });

  it('and neither to one without (events)', async () => {
    const moduleRef = await composed('events');
    try {
      expect([MessageBus, OutboxRelay, UnitOfWork].map((token) => has(moduleRef, token))).toEqual([false, false, false]);
    } finally {
      await moduleRef.close();
    }
  });
});
