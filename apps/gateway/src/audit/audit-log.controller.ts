import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, ApiErrors, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { AuditLogPage, AuditLogQuery } from './audit.dto';
import { ListAuditLogUseCase } from './list-audit-log.use-case';

/** Operator API: the audit log of every operator call. */
@ApiTags('operator')
@Controller('admin/v1/audit-log')
@OperatorAuth()
export class AuditLogController {
  constructor(private readonly listAuditLog: ListAuditLogUseCase) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditLog',
    summary: 'Read the audit log of the operator API',
    description:
      'Every /admin/v1 call, refused ones included, written before its answer was sent. Newest first; page with before=<next_cursor>. Filter by partner (partner_id), operator key (operator_key_id) and time (from, to: Unix seconds, from inclusive, to exclusive).',
  })
  @ApiAnswer(200, AuditLogPage, { description: 'A page of entries' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  list(@Query(new ContractPipe(AuditLogQuery)) query: AuditLogQuery): Promise<AuditLogPage> {
    return this.listAuditLog.execute(query);
  }
}
