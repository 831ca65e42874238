import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DecideMedCaseRequest, ListMedCasesRequest, MedCasesPage, MedCaseView } from '@partner/contracts';
import { IsUUID } from 'class-validator';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { ManageMedCasesUseCase } from './manage-med-cases.use-case';

/** The path of /admin/v1/med-cases/{case_id}/... */
export class MedCaseParams {
  @ApiProperty({ format: 'uuid', description: "DICT's id of the infraction report or the refund request" })
  @IsUUID('all', { message: 'case_id must be a UUID' })
  case_id!: string;
}

/** Operator API: MED cases DICT holds against the users' inflows, and their decisions (docs/operations/pix-and-dict.md, "MED"). */
@ApiTags('operator')
@Controller('admin/v1/med-cases')
@OperatorAuth()
export class MedCasesController {
  constructor(private readonly medCases: ManageMedCasesUseCase) {}

  @Get()
  @ApiOperation({
    operationId: 'listMedCases',
    summary: 'List MED cases',
    description:
      "MED cases (infraction reports and refund requests) DICT holds against the users' Pix inflows, with the cents each blocks of the user's balance and what it needs: newest first, of a status and a partner when asked; page with cursor=<next_cursor>. A case whose payment no inflow has, or whose inflow is not credited, is listed with nothing blocked and its attention set.",
  })
  @ApiAnswer(200, MedCasesPage, { description: 'A page of MED cases' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  list(@Query() query: ListMedCasesRequest): Promise<MedCasesPage> {
    return this.medCases.list(new ContractPipe(ListMedCasesRequest).transform(query));
  }

  @Post(':case_id/decision')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'decideMedCase',
    summary: 'Decide a MED case',
    description:
      'An infraction report: agree (the funds stay blocked for the refund request that follows; DICT: AGREED) or disagree (the block released; DISAGREED). A refund request: accept (the blocked cents, all or amount_cents of them, are returned to the payer by devolução, the rest released; once it settles the case is returned and DICT told TOTALLY_ACCEPTED or PARTIALLY_ACCEPTED with its end-to-end id; if it fails the cents are blocked again and the case open) or reject (released; REJECTED with rejection_reason). Only an open case is decided (409 med_case_not_open); a decision of the other kind is 422 med_decision_invalid. Audited like every operator call.',
  })
  @ApiAnswer(200, MedCaseView, { description: 'The case now (accept: returning, until its devolução settles)' })
  @ApiErrors(
    'operator',
    [
      ...OPERATOR_ERRORS,
      ...JSON_BODY_ERRORS,
      'med_case_not_found',
      'med_case_not_open',
      'med_decision_invalid',
      'invalid_amount',
      'not_implemented',
    ],
    OPERATOR_SAMPLES,
  )
  decide(
    @Param(new ContractPipe(MedCaseParams)) params: MedCaseParams,
    @Body(new ContractPipe(DecideMedCaseRequest)) body: DecideMedCaseRequest,
    @Req() request: OperatorRequest,
  ): Promise<MedCaseView> {
    return this.medCases.decide(params.case_id, body, operatorName(request));
  }
}
