import { serviceAppModule } from '@partner/platform';
import { InflowsConfig } from './config/inflows.config';
import { PixInflowsModule } from './pix-inflows/pix-inflows.module';
import { PixKeyReplicaModule } from './pix-key-replica/pix-key-replica.module';
import { SpiSimulatorModule } from './spi-simulator/spi-simulator.module';
import { AccountsModule } from './accounts/accounts.module';
import { PartnerStatusesModule } from './partner-statuses/partner-statuses.module';
import { PixInRefundsModule } from './pix-in-refunds/pix-in-refunds.module';
import { MedCasesModule } from './med-cases/med-cases.module';

export const AppModule = serviceAppModule({
  name: 'inflows',
  configClass: InflowsConfig,
  // The simulated payment network credits BRL out of nothing: loaded with SANDBOX=true only, never in production.
  features: (config) => [
    AccountsModule,
    PartnerStatusesModule,
    PixKeyReplicaModule,
    ...(config.SANDBOX ? [SpiSimulatorModule] : []),
    PixInflowsModule,
    PixInRefundsModule.register({ withProvider: config.PIX_API_URL !== '' }),
    MedCasesModule,
  ],
});
