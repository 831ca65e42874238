import { Controller } from '@nestjs/common';
import {
  GetWithdrawalPolicyQuery,
  ListAddressesQuery,
  ok,
  RemoveAddressCommand,
  RequestReply,
  SaveAddressCommand,
  SetWithdrawalPolicyCommand,
  Topics,
} from '@partner/contracts';
import { HandleRequest } from '@partner/kafka';
import { ManageDestinationsUseCase } from './manage-destinations.use-case';

/** A partner's withdrawal policy (the operator's) and its users' address books (the partner's). */
@Controller()
export class DestinationsHandler {
  constructor(private readonly destinations: ManageDestinationsUseCase) {}

  @HandleRequest(Topics.WithdrawalsSetPolicy)
  setPolicy(c: SetWithdrawalPolicyCommand): Promise<RequestReply<typeof Topics.WithdrawalsSetPolicy>> {
    return this.destinations.setPolicy(c).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsPolicy)
  policy(q: GetWithdrawalPolicyQuery): Promise<RequestReply<typeof Topics.WithdrawalsPolicy>> {
    return this.destinations.policy(q).then(ok);
  }

  @HandleRequest(Topics.WithdrawalsSaveAddress)
  save(c: SaveAddressCommand): Promise<RequestReply<typeof Topics.WithdrawalsSaveAddress>> {
    return this.destinations.save(c);
  }

  @HandleRequest(Topics.WithdrawalsRemoveAddress)
  remove(c: RemoveAddressCommand): Promise<RequestReply<typeof Topics.WithdrawalsRemoveAddress>> {
    return this.destinations.remove(c);
  }

  @HandleRequest(Topics.WithdrawalsAddresses)
  list(q: ListAddressesQuery): Promise<RequestReply<typeof Topics.WithdrawalsAddresses>> {
    return this.destinations.list(q);
  }
}
