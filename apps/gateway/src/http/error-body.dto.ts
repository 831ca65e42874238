import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** An error body whose code is under `codeKey` (`error` or `status`); the rest is common to both. */
function errorBodyWithCodeIn(codeKey: 'error' | 'status', example: { code: string; message: string; field: string }) {
  class ErrorBodyWithCode {
    @ApiProperty({ name: codeKey, description: 'Stable machine code: branch on it, never on the message', example: example.code })
    code!: string;

    @ApiProperty({ description: 'For humans; may change', example: example.message })
    message!: string;

    @ApiPropertyOptional({
      description: 'The offending input, when there is one (a dotted path for nested fields)',
      example: example.field,
    })
    field?: string;

    @ApiPropertyOptional({ description: 'The id of the request, to quote when asking about it' })
    request_id?: string;
  }
  return ErrorBodyWithCode;
}

/**
 * The two error bodies of docs/api.md "Errors" as OpenAPI schemas (errorBody() builds them): `{error, message,
 * field?}` on every family but Pix keys, `{status, message, field?}` on Pix keys (whose 401 is still
 * `{error: "unauthorized"}`). Each operation narrows the code to the ones it can answer (ApiErrors).
 * Schemas only: the code is `code` on these classes, `error` / `status` in the document.
 */
@ApiSchema({ description: 'An error of every family but Pix keys' })
export class ErrorBody extends errorBodyWithCodeIn('error', {
  code: 'invalid_request',
  message: 'network must be one of ETH, MATIC',
  field: 'network',
}) {}

@ApiSchema({ description: 'An error of the Pix key family (but 401, an ErrorBody)' })
export class PixKeyErrorBody extends errorBodyWithCodeIn('status', {
  code: 'invalid_document',
  message: 'document must be a valid CPF: 11 digits with valid check digits',
  field: 'document',
}) {}

@ApiSchema({
  description:
    "An error of a resource that exists already (a business customer's already_exists): an ErrorBody naming the partner's own resource",
})
export class ExistingResourceErrorBody extends ErrorBody {
  @ApiProperty({
    format: 'uuid',
    description: "The id of the partner's resource that is already there",
    example: '5f0c3a52-2f7e-4a57-9c1e-6f1d0b8e2a41',
  })
  id!: string;
}
