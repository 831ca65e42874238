import { IsObject, IsUUID } from 'class-validator';

/** POST /partner/v1/customers/business (spec 4.2); the full body class arrives with issue #3. */
export class CreateBusinessCustomerCommand {
  @IsUUID()
  partner_id!: string;

  @IsObject()
  customer!: Record<string, unknown>;
}

export interface CreateBusinessCustomerResult {
  id: string;
}
