import { Controller } from '@nestjs/common';
import { GetPartnerLimitsQuery, GetUserLimitsQuery, ok, RequestReply, SetLimitsCommand, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { GetLimitsUseCase } from './get-limits.use-case';
import { SetLimitsUseCase } from './set-limits.use-case';

/** Withdrawal limits: the operator sets and reads them; a partner reads its user's, with their use. */
@Controller()
export class LimitsHandler {
  constructor(
    private readonly set: SetLimitsUseCase,
    private readonly get: GetLimitsUseCase,
  ) {}

  @HandleRequest(Topics.WithdrawalsSetLimits)
  setLimits(command: SetLimitsCommand): Promise<RequestReply<typeof Topics.WithdrawalsSetLimits>> {
    return this.set.execute(command);
  }

  @HandleRequest(Topics.WithdrawalsPartnerLimits)
  partnerLimits(query: GetPartnerLimitsQuery): Promise<RequestReply<typeof Topics.WithdrawalsPartnerLimits>> {
    return this.get.partner(query.partner_id).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsUserLimits)
  userLimits(query: GetUserLimitsQuery): Promise<RequestReply<typeof Topics.WithdrawalsUserLimits>> {
    return this.get.user(query);
  }
}
