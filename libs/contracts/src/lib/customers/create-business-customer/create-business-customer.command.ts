import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { CreateBusinessCustomerRequest } from './create-business-customer.request';
import { PartnerId } from '../../tenancy/partner-id';

export class CreateBusinessCustomerCommand extends CreateBusinessCustomerRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

/** The reply of the customers service, and the HTTP answer of POST /partner/v1/customers/business (201). */
export class CreateBusinessCustomerResult {
  @ApiProperty({ format: 'uuid', description: "The customer's id; its business_customer event carries it as resource_id" })
  id!: string;
}
