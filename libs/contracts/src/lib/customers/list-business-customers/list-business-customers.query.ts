import { ApiProperty, ApiPropertyOptional } from '../../api-documentation';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { IsCnpj } from '@partner/validation';
import { codesOf } from '../../error-codes';
import { NEXT_CURSOR_PROPERTY, PagedListRequest } from '../../paging/list-page';
import { PartnerId } from '../../tenancy/partner-id';
import { MAX_EXTERNAL_ID_LENGTH } from '../create-business-customer/create-business-customer.request';
import { BusinessCustomerView } from '../get-business-customer/get-business-customer.query';

const businessCustomersCode = codesOf('business_customers');

const EXTERNAL_ID_MESSAGE = `external_id must be a non-blank string of at most ${MAX_EXTERNAL_ID_LENGTH} characters`;

/** Query string of GET /partner/v1/customers/business (docs/api.md: "Lists"). */
export class ListBusinessCustomersRequest extends PagedListRequest {
  @ApiPropertyOptional({ description: 'Only the customer with this CNPJ (14 characters, unformatted)', example: '12ABC34501DE35' })
  @IsOptional()
  @IsCnpj(businessCustomersCode('invalid_cnpj'))
  cnpj?: string;

  @ApiPropertyOptional({
    description: 'Only customers registered with this metadata.external_id (exact match)',
    maxLength: MAX_EXTERNAL_ID_LENGTH,
    example: 'acme-001',
  })
  @IsOptional()
  @IsString({ message: EXTERNAL_ID_MESSAGE })
  @MaxLength(MAX_EXTERNAL_ID_LENGTH, { message: EXTERNAL_ID_MESSAGE })
  @Matches(/\S/, { message: EXTERNAL_ID_MESSAGE })
  external_id?: string;
}

export class ListBusinessCustomersQuery extends ListBusinessCustomersRequest {
  @IsUUID()
  partner_id!: PartnerId;
}

export class ListBusinessCustomersResult {
  @ApiProperty({
    type: () => [BusinessCustomerView],
    description: 'Newest first (by registration time), each as GET /partner/v1/customers/business/{id} answers it',
  })
  customers!: BusinessCustomerView[];

  @ApiProperty(NEXT_CURSOR_PROPERTY)
  next_cursor!: string | null;
}
