import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  DenyListAddRequest,
  DenyListAddResult,
  DenyListEntryView,
  DenyListPage,
  DenyListPageRequest,
  DenyListParams,
  ReplaceSdnListRequest,
  ReplaceSdnListResult,
  ScreeningStatus,
} from '@partner/contracts';
import { FastifyReply } from 'fastify';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { ManageScreeningUseCase } from './manage-screening.use-case';

const SDN_SAMPLES = {
  ...OPERATOR_SAMPLES,
  invalid_transition: {
    when: 'the copy in use was published later than this one',
    message: 'the SDN copy in use was published after 2024-09-27T00:00:00.000Z: an older copy is refused',
  },
};
const REMOVE_SAMPLES = {
  ...OPERATOR_SAMPLES,
  not_found: { when: 'the address is not on the deny list', message: '0x8589427373d6d84e98730d7795d8f6f8731fda16 is not on the deny list' },
};

/**
 * Operator API: the screening of withdrawal destinations (docs/operations/screening.md). Every destination is
 * checked against the OFAC SDN copy, the token's blacklist and the operator's deny list when the withdrawal
 * is asked for and again before its payout is signed.
 */
@ApiTags('operator')
@Controller('admin/v1/screening')
@OperatorAuth()
export class ScreeningController {
  constructor(private readonly screening: ManageScreeningUseCase) {}

  @Get()
  @ApiOperation({
    operationId: 'getScreening',
    summary: 'Screening lists and their dates',
    description:
      "The screening adapter in use and each list: the OFAC SDN copy (its source, when it was published and loaded, how many addresses), the token contracts' blacklist (read from the nodes), the deny list's size.",
  })
  @ApiAnswer(200, ScreeningStatus, { description: 'The lists' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  status(): Promise<ScreeningStatus> {
    return this.screening.status();
  }

  @Put('ofac-sdn')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replaceSdnList',
    summary: 'Load a new copy of the SDN list',
    description:
      "Replaces the SDN list's EVM addresses in use, whole (`npm run cli -- screening update <file>` sends a file of one address per line). In the same transaction every withdrawal not signed yet to an address of the copy fails with failure_reason address_blocked, its hold released. A copy published before the one in use is refused (409 invalid_transition). Audited like every operator call.",
  })
  @ApiAnswer(200, ReplaceSdnListResult, { description: 'The copy now in use, and the withdrawals it failed' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'invalid_transition'], SDN_SAMPLES)
  replaceSdn(
    @Body(new ContractPipe(ReplaceSdnListRequest)) body: ReplaceSdnListRequest,
    @Req() request: OperatorRequest,
  ): Promise<ReplaceSdnListResult> {
    return this.screening.replaceSdn(body, operatorName(request));
  }

  @Get('deny-list')
  @ApiOperation({
    operationId: 'listDenyList',
    summary: 'The deny list',
    description: 'The addresses the operator refuses, by address; page with limit (1-1000, default 100) and cursor=<next_cursor>.',
  })
  @ApiAnswer(200, DenyListPage, { description: 'A page of the deny list' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  denyList(@Query(new ContractPipe(DenyListPageRequest)) query: DenyListPageRequest): Promise<DenyListPage> {
    return this.screening.denyList(query);
  }

  @Post('deny-list')
  @ApiOperation({
    operationId: 'addToDenyList',
    summary: 'Refuse an address',
    description:
      'From now on a withdrawal to it is refused (422 address_blocked) and, in the same transaction, every withdrawal not signed yet to it fails with failure_reason address_blocked, its hold released. 201 when added; 200 when it was listed already (its first entry, nothing changed). Audited like every operator call.',
  })
  @ApiAnswer(201, DenyListAddResult, { description: 'Added' })
  @ApiAnswer(200, DenyListAddResult, { description: 'It was listed already: its entry, nothing changed' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS], OPERATOR_SAMPLES)
  async deny(
    @Body(new ContractPipe(DenyListAddRequest)) body: DenyListAddRequest,
    @Req() request: OperatorRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DenyListAddResult> {
    const result = await this.screening.deny(body, operatorName(request));
    void reply.status(result.created ? 201 : 200);
    return result;
  }

  @Delete('deny-list/:address')
  @ApiOperation({
    operationId: 'removeFromDenyList',
    summary: 'Lift an address from the deny list',
    description:
      'Withdrawals to it are accepted again (unless another list holds it); those it failed stay failed. Answers the entry removed. Audited like every operator call.',
  })
  @ApiAnswer(200, DenyListEntryView, { description: 'The entry removed' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'not_found'], REMOVE_SAMPLES)
  undeny(@Param(new ContractPipe(DenyListParams)) params: DenyListParams, @Req() request: OperatorRequest): Promise<DenyListEntryView> {
    return this.screening.undeny(params.address, operatorName(request));
  }
}
