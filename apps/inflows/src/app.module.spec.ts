import { loadConfig } from '@partner/config';
import { AppModule } from './app.module';
import { InflowsConfig } from './config/inflows.config';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { SpiSimulatorModule } from './spi-simulator/spi-simulator.module';

const base = { DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: '127.0.0.1:1' };
const importsWith = (env: Record<string, string>) => AppModule.register(loadConfig(InflowsConfig, { ...base, ...env })).imports ?? [];

describe('the inflows service', () => {
  it('loads the simulated Pix network (which credits BRL out of nothing) with SANDBOX=true only', () => {
    expect(importsWith({ SANDBOX: 'true' })).toEqual(expect.arrayContaining([SpiSimulatorModule, PixInflowsModule]));
    for (const env of [{}, { SANDBOX: 'false' }] as Record<string, string>[]) {
      const imports = importsWith(env);
      expect(imports).toContain(PixInflowsModule);
      expect(imports).not.toContain(SpiSimulatorModule);
    }
  });
});

describe('the Pix API setting (refunds)', () => {
  const production = { ...base, NODE_ENV: 'production', OPERATOR_ISPB: '12345678', INTERNAL_SECRET: 'a'.repeat(40) };

  it('is required in production, over https, unless the counterparties are test servers or it is the sandbox', () => {
    expect(() => loadConfig(InflowsConfig, production)).toThrow(/PIX_API_URL must be the https:\/\/ base URL/);
    expect(() => loadConfig(InflowsConfig, { ...production, PIX_API_URL: 'http://pix.provider.example' })).toThrow(/PIX_API_URL/);
    expect(loadConfig(InflowsConfig, { ...production, PIX_API_URL: 'https://pix.provider.example/api/v2' }).PIX_API_URL).toBe(
      'https://pix.provider.example/api/v2',
    );
    expect(
      loadConfig(InflowsConfig, { ...production, LOCAL_COUNTERPARTIES: 'true', PIX_API_URL: 'http://pix-api-test:8480' }).PIX_API_URL,
    ).toBe('http://pix-api-test:8480');
    expect(loadConfig(InflowsConfig, { ...base, NODE_ENV: 'development' }).PIX_API_URL).toBe('');
  });
});
