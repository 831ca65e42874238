import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { DestinationsHandler } from './destinations.handler';
import { DestinationsRepository } from './destinations.repository';
import { ManageDestinationsUseCase } from './manage-destinations.use-case';

/** Withdrawal destinations (docs/operations/destinations.md): the partner's policy and its users' address books. */
@Module({
  imports: [AccountsModule],
  controllers: [DestinationsHandler],
  providers: [DestinationsRepository, ManageDestinationsUseCase],
  exports: [DestinationsRepository],
})
export class DestinationsModule {}
