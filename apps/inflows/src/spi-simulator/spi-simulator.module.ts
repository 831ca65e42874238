import { Module } from '@nestjs/common';
import { PixInflowsModule } from '../pix-inflows/pix-inflows.module';
import { NotifyReceivedPixUseCase } from './notify-received-pix.use-case';
import { PixReceivedHandler } from './pix-received.handler';
import { SettleSandboxPixUseCase } from './settle-sandbox-pix.use-case';
import { SettlementSimulatorService } from './settlement-simulator.service';
import { SimulatePixInHandler } from './simulate-pix-in.handler';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';
import { SpiPaymentRepository } from './spi-payment.repository';

/**
 * The simulated Pix payment network (SPI) and the sandbox's Pix provider: sends sandbox payments to our
 * users over Kafka, then notifies each one's statuses through the provider's ingestion (PixInflowsModule's
 * IngestPixInflowUseCase), as the real provider does through POST /provider/v1/pix/inflows. It reads the
 * users and the key replica inside its own statement (SpiPaymentRepository.send), so it needs neither
 * module's providers.
 */
@Module({
  imports: [PixInflowsModule],
  controllers: [SimulatePixInHandler, PixReceivedHandler],
  providers: [SimulatePixInUseCase, SpiPaymentRepository, NotifyReceivedPixUseCase, SettleSandboxPixUseCase, SettlementSimulatorService],
})
export class SpiSimulatorModule {}
