import { ErrorDetail } from '@partner/validation';

/**
 * Spec section 7: the error body shape depends on the endpoint family. Withdrawals and business
 * customers answer `{error, message}`, Pix keys `{status, message}`. Authentication failures are
 * `{error: "unauthorized"}` on every family. `field` names the offending input when there is one.
 */
export function errorBody(url: string, detail: ErrorDetail): Record<string, string> {
  const body: Record<string, string> =
    url.startsWith('/partner/v1/pix-key') && detail.code !== 'unauthorized'
      ? { status: detail.code, message: detail.message }
      : { error: detail.code, message: detail.message };
  if (detail.field) body.field = detail.field;
  return body;
}
