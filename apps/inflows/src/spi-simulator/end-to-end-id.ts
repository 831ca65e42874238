import { randomInt } from 'node:crypto';
import { ISPB_PATTERN } from '@partner/contracts';

const ALPHANUMERICS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The UTC minute as the SPI writes it in an end-to-end id: yyyyMMddHHmm. */
export function utcMinute(at: Date): string {
  const iso = at.toISOString(); // yyyy-MM-ddTHH:mm:ss.sssZ, always UTC
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}`;
}

/**
 * An end-to-end id in the SPI's format (Manual de Padrões para Iniciação do Pix): `E`, the payer
 * institution's ISPB, the UTC minute the payment was made, and 11 alphanumerics that make it unique
 * within that institution and minute. 32 characters.
 */
export function newEndToEndId(payerIspb: string, at: Date): string {
  if (!ISPB_PATTERN.test(payerIspb)) throw new Error(`an ISPB has 8 digits, not ${JSON.stringify(payerIspb)}`);
  let suffix = '';
  for (let i = 0; i < 11; i++) suffix += ALPHANUMERICS[randomInt(ALPHANUMERICS.length)];
  return `E${payerIspb}${utcMinute(at)}${suffix}`;
}
