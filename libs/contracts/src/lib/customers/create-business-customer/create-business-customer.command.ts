import { IsUUID } from 'class-validator';
import { CreateBusinessCustomerRequest } from './create-business-customer.request';

export class CreateBusinessCustomerCommand extends CreateBusinessCustomerRequest {
  @IsUUID()
  partner_id!: string;
}

export interface CreateBusinessCustomerResult {
  id: string;
}
