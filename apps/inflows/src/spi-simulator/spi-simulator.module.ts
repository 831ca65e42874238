import { Module } from '@nestjs/common';
import { SimulatePixInHandler } from './simulate-pix-in.handler';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';
import { SpiPaymentRepository } from './spi-payment.repository';

/**
 * The simulated Pix payment network (SPI): sends sandbox payments to our users over Kafka. It reads the
 * users and the key replica inside its own statement (SpiPaymentRepository.send), so it needs neither
 * module's providers.
 */
@Module({
  controllers: [SimulatePixInHandler],
  providers: [SimulatePixInUseCase, SpiPaymentRepository],
})
export class SpiSimulatorModule {}
