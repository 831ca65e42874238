import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AddressChallenge,
  addressChallenge,
  AddressChallengeQuery,
  AddressParams,
  SaveAddressRequest,
  SavedAddressList,
  SavedAddressView,
  Topics,
  UserDocumentParams,
} from '@partner/contracts';
import { PartnerAuth } from '../auth/partner-auth.decorator';
import { CurrentPartner } from '../auth/current-partner.decorator';
import { Partner } from '../auth/partner.repository';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, PARTNER_ERRORS } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';

/**
 * A user's saved destinations, with their owners (docs/api.md: "The destination's owner"): where withdrawals go
 * when the partner's policy allows saved addresses only, and whose owner a withdrawal to them carries.
 */
@ApiTags('withdrawals')
@Controller('partner/v1/users/:document/addresses')
@PartnerAuth()
export class AddressBookController {
  constructor(private readonly bus: ForwardingBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listSavedAddresses',
    summary: "List a user's saved addresses",
    description:
      "Oldest first, each with its owner, whether a proof of control was verified, and from when it can be paid (your policy's cool-down).",
  })
  @ApiAnswer(200, SavedAddressList, { description: 'The saved addresses' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_request', 'user_not_found'])
  list(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
  ): Promise<SavedAddressList> {
    return this.bus.call(Topics.WithdrawalsAddresses, { partner_id: partner.id, document: params.document });
  }

  @Get('challenge')
  @ApiOperation({
    operationId: 'getAddressChallenge',
    summary: 'The text to sign to prove control of an address',
    description:
      'For a self-hosted wallet: have its key sign this text with personal_sign (EIP-191) and send the signature as proof.signature when saving the address. It names the address, the user and you, so it proves control for this user only.',
  })
  @ApiAnswer(200, AddressChallenge, { description: 'The text to sign' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_request', 'invalid_address'])
  challenge(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
    @Query(new ContractPipe(AddressChallengeQuery)) query: AddressChallengeQuery,
  ): AddressChallenge {
    return { message: addressChallenge(partner.id, params.document, query.address) };
  }

  @Post()
  @ApiOperation({
    operationId: 'saveAddress',
    summary: 'Save an address with its owner',
    description:
      'Saved again, its label, owner and proof are replaced; its cool-down runs from the first save. With proof.signature, the signature is verified (EIP-191, over the challenge) before anything is kept: 422 invalid_proof otherwise.',
  })
  @ApiAnswer(201, SavedAddressView, { description: 'The saved address' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, ...JSON_BODY_ERRORS, 'invalid_address', 'user_not_found', 'invalid_proof'])
  save(
    @CurrentPartner() partner: Partner,
    @Param(new ContractPipe(UserDocumentParams)) params: UserDocumentParams,
    @Body(new ContractPipe(SaveAddressRequest)) body: SaveAddressRequest,
  ): Promise<SavedAddressView> {
    return this.bus.call(Topics.WithdrawalsSaveAddress, { ...body, partner_id: partner.id, document: params.document });
  }

  @Delete(':address')
  @ApiOperation({ operationId: 'removeSavedAddress', summary: 'Remove a saved address', description: 'Answers the entry removed.' })
  @ApiAnswer(200, SavedAddressView, { description: 'The entry removed' })
  @ApiErrors('withdrawals', [...PARTNER_ERRORS, 'invalid_request', 'invalid_address', 'not_found'])
  remove(@CurrentPartner() partner: Partner, @Param(new ContractPipe(AddressParams)) params: AddressParams): Promise<SavedAddressView> {
    return this.bus.call(Topics.WithdrawalsRemoveAddress, { partner_id: partner.id, document: params.document, address: params.address });
  }
}
