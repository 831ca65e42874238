import { Controller } from '@nestjs/common';
import { CancelPayoutCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { CancelPayoutUseCase } from './cancel-payout.use-case';

/** The operator API's payout requests: the cancel of a payout's nonce. */
@Controller()
export class PayoutsHandler {
  constructor(private readonly cancel: CancelPayoutUseCase) {}

  @HandleRequest(Topics.WithdrawalsCancelPayout)
  cancelPayout(command: CancelPayoutCommand): Promise<RequestReply<typeof Topics.WithdrawalsCancelPayout>> {
    return this.cancel.execute(command);
  }
}
