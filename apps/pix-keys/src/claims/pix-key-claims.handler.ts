import { Controller } from '@nestjs/common';
import { CancelPixKeyClaimCommand, ConfirmPixKeyClaimCommand, RequestReply, Topics } from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { DecidePixKeyClaimUseCase } from './decide-pix-key-claim.use-case';

@Controller()
export class PixKeyClaimsHandler {
  constructor(private readonly decide: DecidePixKeyClaimUseCase) {}

  @HandleRequest(Topics.PixKeysConfirmClaim)
  confirm(command: ConfirmPixKeyClaimCommand): Promise<RequestReply<typeof Topics.PixKeysConfirmClaim>> {
    return this.decide.execute({ action: 'confirm', command });
  }

  @HandleRequest(Topics.PixKeysCancelClaim)
  cancel(command: CancelPixKeyClaimCommand): Promise<RequestReply<typeof Topics.PixKeysCancelClaim>> {
    return this.decide.execute({ action: 'cancel', command });
  }
}
