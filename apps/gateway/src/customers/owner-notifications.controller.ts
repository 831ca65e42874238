import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ListOwnerNotificationsResult, OwnerNotificationsParams } from '@partner/contracts';
import { ApiAnswer, ApiErrors, ErrorSamples, OPERATOR_ERRORS, OPERATOR_SAMPLES } from '../http/api-responses.decorator';
import { ContractPipe } from '../http/contract-body.pipe';
import { OperatorAuth } from '../operators/operator-auth.decorator';
import { ReadOwnerNotificationsUseCase } from './read-owner-notifications.use-case';

const SAMPLES: ErrorSamples = {
  ...OPERATOR_SAMPLES,
  not_found: {
    when: 'the partner has no business customer with that id',
    message: 'no business customer 5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41',
  },
};

/** Operator API: what became of the e-mails and SMS a business customer's registration asked for (docs/operations/notifications.md: "A failed owner notification"). */
@ApiTags('operator')
@Controller('admin/v1/partners/:partner_id/business-customers')
@OperatorAuth()
export class OwnerNotificationsController {
  constructor(private readonly read: ReadOwnerNotificationsUseCase) {}

  @Get(':id/notifications')
  @ApiOperation({
    operationId: 'listOwnerNotifications',
    summary: "Read a business customer's owner notifications",
    description:
      "The e-mail and SMS to each owner that the registration's config asked for (auto_send_owner_email, auto_send_owner_sms): pending (waiting for an attempt), sent (the SMTP server or the SMS provider accepted it) or failed (every attempt failed: final), with the attempts made, when the next is due, and the last error (identifiers masked).",
  })
  @ApiParam({
    name: 'id',
    description: "The business customer's id (POST /partner/v1/customers/business answered it)",
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiParam({ name: 'partner_id', schema: { type: 'string', format: 'uuid' } })
  @ApiAnswer(200, ListOwnerNotificationsResult, { description: 'By owner, then channel; empty when the registration asked for none' })
  @ApiErrors('operator', [...OPERATOR_ERRORS, 'invalid_request', 'partner_not_found', 'not_found'], SAMPLES)
  list(@Param() params: unknown): Promise<ListOwnerNotificationsResult> {
    const { partner_id, id } = new ContractPipe(OwnerNotificationsParams).transform(params);
    return this.read.execute(partner_id, id);
  }
}
