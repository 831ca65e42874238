import { IsString } from 'class-validator';

/**
 * Body of POST /partner/v1/customers/business (spec 2.2). PLACEHOLDER: the customers work replaces this
 * with the full class (nested Address, Owner, Ownership; codes invalid_cnpj, invalid_phone, invalid_owner).
 */
export class CreateBusinessCustomerRequest {
  @IsString()
  cnpj!: string;
}
