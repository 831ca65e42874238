import { ApiProperty } from '../../api-documentation';
import { IsUUID } from 'class-validator';
import { CreateBusinessCustomerRequest } from '../create-business-customer/create-business-customer.request';
import { PartnerId } from '../../tenancy/partner-id';

/** The path parameter of GET /partner/v1/customers/business/{id}; the same class validates the Kafka payload. */
export class BusinessCustomerIdParams {
  @ApiProperty({ format: 'uuid', description: 'The id POST /partner/v1/customers/business answered' })
  @IsUUID('all', { message: 'id must be a UUID' })
  id!: string;
}

export class GetBusinessCustomerQuery extends BusinessCustomerIdParams {
  @IsUUID()
  partner_id!: PartnerId;
}

/**
 * A registered customer as GET /partner/v1/customers/business/{id} answers it: the body as the partner
 * sent it (optional fields left out stay out, nulls stay null, metadata as given), plus its id and
 * registration time. Extends the request class for the OpenAPI schema only; it is never validated.
 */
export class BusinessCustomerView extends CreateBusinessCustomerRequest {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: 'integer', description: 'Unix seconds of the registration' })
  created_at!: number;
}

export type GetBusinessCustomerResult = BusinessCustomerView;
