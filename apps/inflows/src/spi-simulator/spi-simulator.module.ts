import { Module } from '@nestjs/common';
import { PixKeyReplicaModule } from '../pix-key-replica/pix-key-replica.module';
import { UsersModule } from '../users/users.module';
import { SimulatePixInHandler } from './simulate-pix-in.handler';
import { SimulatePixInUseCase } from './simulate-pix-in.use-case';
import { SpiPaymentRepository } from './spi-payment.repository';

/** The simulated Pix payment network (SPI): sends sandbox payments to our users over Kafka. */
@Module({
  imports: [UsersModule, PixKeyReplicaModule],
  controllers: [SimulatePixInHandler],
  providers: [SimulatePixInUseCase, SpiPaymentRepository],
})
export class SpiSimulatorModule {}
