import { Injectable } from '@nestjs/common';
import { PeriodicJobService } from '@partner/runtime';
import { InflowsConfig } from '../config/inflows.config';
import { SendPixInRefundsUseCase } from './send-pix-in-refunds.use-case';

/** Drives the refunds' round on a timer; a full round runs again at once (more refunds are due). */
@Injectable()
export class SendPixInRefundsService extends PeriodicJobService {
  constructor(config: InflowsConfig, send: SendPixInRefundsUseCase) {
    super({
      name: 'pix-in-refunds',
      intervalMs: config.PIX_API_POLL_MS,
      run: async () => {
        if ((await send.execute()) > 0) this.runAgainNow();
      },
    });
  }
}
