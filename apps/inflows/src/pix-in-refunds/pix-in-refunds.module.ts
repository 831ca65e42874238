import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MedCaseReturns } from '../med-cases/med-case-returns';
import { MedCaseRepository } from '../med-cases/med-case.repository';
import { PixInflowsModule } from '../pix-inflows/pix-inflows.module';
import { GetPixInflowUseCase } from './get-pix-inflow.use-case';
import { PixApiRefunds } from './pix-api-refunds';
import { PixInRefundRepository } from './pix-in-refund.repository';
import { PixInRefundsHandler } from './pix-in-refunds.handler';
import { PixRefunds } from './pix-refunds.port';
import { RefundPixInUseCase } from './refund-pix-in.use-case';
import { SendPixInRefundsService } from './send-pix-in-refunds.service';
import { SendPixInRefundsUseCase } from './send-pix-in-refunds.use-case';

/**
 * Partners' refunds (devoluções) of credited inflows, and the inflow's read-back with them. The round that
 * sends them to the Pix provider's Pix API runs only where one is configured (`withProvider`: PIX_API_URL);
 * without one, asking a refund is 501 not_implemented (RefundPixInUseCase), so none waits for a round that
 * never comes.
 */
@Module({})
export class PixInRefundsModule {
  static register({ withProvider }: { withProvider: boolean }): DynamicModule {
    return {
      module: PixInRefundsModule,
      imports: [AccountsModule, PixInflowsModule],
      controllers: [PixInRefundsHandler],
      providers: [
        PixInRefundRepository,
        RefundPixInUseCase,
        GetPixInflowUseCase,
        ...(withProvider
          ? [
              { provide: PixRefunds, useClass: PixApiRefunds },
              MedCaseRepository,
              MedCaseReturns,
              SendPixInRefundsUseCase,
              SendPixInRefundsService,
            ]
          : []),
      ],
    };
  }
}
