import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListUnmatchedPixInflowsQuery, OperatorPageRequest, Topics, UnmatchedPixInflowsPage } from '@partner/contracts';
import { ApiAnswer, ApiErrors, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { ForwardingBus } from '../http/forwarding-bus';
import { OperatorAuth } from '../operators/operator-auth.decorator';

/** Operator API: the Pix inflows the provider notified for an account no user has (docs/api.md: "Pix provider ingestion"). */
@ApiTags('operator')
@Controller('admin/v1/unmatched-pix-inflows')
@OperatorAuth()
export class UnmatchedPixInflowsController {
  constructor(private readonly bus: ForwardingBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listUnmatchedPixInflows',
    summary: 'List the Pix inflows kept aside',
    description:
      "Inflows the Pix provider notified for a receiving account no user has (another ISPB, an unknown branch, number or type): kept as notified, with the last status notified, credited to no one, in no partner's listing or feed. Newest first; page with cursor=<next_cursor>.",
  })
  @ApiAnswer(200, UnmatchedPixInflowsPage, { description: 'A page of inflows kept aside' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request'], OPERATOR_SAMPLES)
  list(@Query() query: OperatorPageRequest): Promise<UnmatchedPixInflowsPage> {
    const page: ListUnmatchedPixInflowsQuery = new ContractPipe(OperatorPageRequest).transform(query);
    return this.bus.call(Topics.InflowsListUnmatched, page);
  }
}
