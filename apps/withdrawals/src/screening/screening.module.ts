import { Module } from '@nestjs/common';
import { PayoutsModule } from '../payouts/payouts.module';
import { ChangeDenyListUseCase } from './change-deny-list.use-case';
import { GetScreeningStatusUseCase } from './get-screening-status.use-case';
import { ListDenyListUseCase } from './list-deny-list.use-case';
import { ReplaceSdnListUseCase } from './replace-sdn-list.use-case';
import { ScreeningHandler } from './screening.handler';

/** Screening's operator side: the lists' state, the SDN copy (the vendored one loaded at start), the deny list. */
@Module({
  imports: [PayoutsModule],
  controllers: [ScreeningHandler],
  providers: [GetScreeningStatusUseCase, ReplaceSdnListUseCase, ChangeDenyListUseCase, ListDenyListUseCase],
})
export class ScreeningModule {}
