import { DynamicModule, Module } from '@nestjs/common';
import { serviceModule } from '@partner/platform';
import { InflowsConfig } from './config/inflows.config';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeyReplicaModule } from './pix-key-replica/pix-key-replica.module';
import { SpiSimulatorModule } from './spi-simulator/spi-simulator.module';
import { AccountsModule } from './accounts/accounts.module';

@Module({})
export class AppModule {
  static register(config: InflowsConfig): DynamicModule {
    return serviceModule(AppModule, {
      name: 'inflows',
      configClass: InflowsConfig,
      config,
      features: [AccountsModule, PixKeyReplicaModule, SpiSimulatorModule, PixInflowsModule],
    });
  }
}
