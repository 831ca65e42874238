import { Module } from '@nestjs/common';
import { ApplyPixKeyEventUseCase } from './apply-pix-key-event.use-case';
import { PixKeyEventsHandler } from './pix-key-events.handler';
import { PixKeyReplicaRepository } from './pix-key-replica.repository';

@Module({
  controllers: [PixKeyEventsHandler],
  providers: [PixKeyReplicaRepository, ApplyPixKeyEventUseCase],
  exports: [PixKeyReplicaRepository],
})
export class PixKeyReplicaModule {}
