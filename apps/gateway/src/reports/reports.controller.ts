import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateWithdrawalReportRequest,
  FileWithdrawalReportRequest,
  WithdrawalReportCreated,
  WithdrawalReportPage,
  WithdrawalReportParams,
  WithdrawalReportQueryRequest,
} from '@partner/contracts';
import { FastifyReply } from 'fastify';
import { ApiAnswer, ApiErrors, JSON_BODY_ERRORS, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import type { OperatorRequest } from '../operators/admin-key.guard';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { operatorName } from '../operators/operator-name';
import { ManageReportsUseCase } from './manage-reports.use-case';

const REPORT_SAMPLES = {
  ...OPERATOR_SAMPLES,
  not_found: { when: 'no report with the id of the path', message: 'no report 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41' },
  invalid_transition: {
    when: 'filed already with another receipt, or one of its withdrawals is in another filed report (make a new report)',
    message: 'report 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41 was filed already, with receipt 12.34.56.78.90-12',
  },
};

/**
 * Operator API: the reports of settled withdrawals to the Receita Federal (docs/operations/reports.md), and the
 * contract's `reported` state they give each withdrawal once filed.
 */
@ApiTags('operator')
@Controller('admin/v1/reports')
@OperatorAuth()
export class ReportsController {
  constructor(private readonly reports: ManageReportsUseCase) {}

  @Post('withdrawals')
  @ApiOperation({
    operationId: 'createWithdrawalReport',
    summary: 'Make a report of settled withdrawals',
    description:
      'Every withdrawal settled in [from, to) and in no filed report yet (state settled), as it is now. A period not over yet is refused (400 invalid_request, field to). Read it with GET /admin/v1/reports/{id}; once filed with the Receita, mark it filed. Audited like every operator call.',
  })
  @ApiAnswer(201, WithdrawalReportCreated, { description: 'The report and how many withdrawals it holds' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS], OPERATOR_SAMPLES)
  create(
    @Body(new ContractPipe(CreateWithdrawalReportRequest)) body: CreateWithdrawalReportRequest,
    @Req() request: OperatorRequest,
  ): Promise<WithdrawalReportCreated> {
    return this.reports.create(body, operatorName(request));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getWithdrawalReport',
    summary: 'Read a report',
    description:
      'format=json (default): the report and a page of its rows (limit, cursor=<next_cursor>), with `lacks`, what the Receita asks that the rows do not carry. format=csv: the whole report as text/csv (RFC 4180; a header line, then one line per withdrawal: date, partner, user, asset, network, amount, fee, destination, tx hash, beneficiary).',
  })
  @ApiAnswer(200, WithdrawalReportPage, { description: 'The report (json); format=csv answers text/csv instead' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'not_found'], REPORT_SAMPLES)
  async get(
    @Param(new ContractPipe(WithdrawalReportParams)) params: WithdrawalReportParams,
    @Query(new ContractPipe(WithdrawalReportQueryRequest)) query: WithdrawalReportQueryRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WithdrawalReportPage | string> {
    if (query.format !== 'csv') return this.reports.page(params.id, query.cursor, query.limit);
    const csv = await this.reports.csv(params.id);
    void reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="withdrawals-${params.id}.csv"`);
    return csv;
  }

  @Post(':id/filed')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'fileWithdrawalReport',
    summary: 'Mark a report filed',
    description:
      "With the Receita's receipt. Each of its withdrawals moves settled → reported, once, naming the report (report_id), with a usdt_withdrawal event in its partner's feed. The same receipt again: the report as filed. Another receipt, or a withdrawal of it in another filed report: 409 invalid_transition, nothing changed. Audited like every operator call.",
  })
  @ApiAnswer(200, WithdrawalReportPage, { description: 'The report as filed (no rows: read them with GET)' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, ...JSON_BODY_ERRORS, 'not_found', 'invalid_transition'], REPORT_SAMPLES)
  file(
    @Param(new ContractPipe(WithdrawalReportParams)) params: WithdrawalReportParams,
    @Body(new ContractPipe(FileWithdrawalReportRequest)) body: FileWithdrawalReportRequest,
    @Req() request: OperatorRequest,
  ): Promise<WithdrawalReportPage> {
    return this.reports.file(params.id, body, operatorName(request));
  }
}
