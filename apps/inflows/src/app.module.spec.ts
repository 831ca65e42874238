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
