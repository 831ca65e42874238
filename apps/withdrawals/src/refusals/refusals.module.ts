import { Module } from '@nestjs/common';
import { refusalRetentionProvider } from '@partner/db';
import { RefusedCommandRepository } from './refused-command.repository';

/** The refused commands of the service (withdrawals and credits alike), and their retention. */
@Module({
  providers: [RefusedCommandRepository, refusalRetentionProvider()],
  exports: [RefusedCommandRepository],
})
export class RefusalsModule {}
