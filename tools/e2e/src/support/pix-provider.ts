import { createHmac, randomBytes } from 'node:crypto';
import { newCpf, requireEnv } from '@partner/testing';

// The Pix provider's side of the production-shaped gateways (docs/api.md, "Pix provider ingestion"):
// what its notifications hold and how it signs them.

const stamp = () => new Date().toISOString().replace(/\D/g, '').slice(0, 12);
/** A fresh end-to-end id, as the provider's bank (ISPB 60701190) gives one. */
export const newEndToEndId = () => `E60701190${stamp()}${randomBytes(8).toString('hex').slice(0, 11)}`;

/** A notification of a manual Pix of R$ 123,45 to `account`, still `processing`; `overrides` change any field. */
export const pixInflowTo = (account: object, overrides: Record<string, unknown> = {}) => ({
  end_to_end_id: newEndToEndId(),
  amount_cents: 12_345,
  method: 'manual',
  receiver_account: account,
  sender_name: 'Maria Souza',
  sender_tax_id: newCpf(),
  sender_account_number: '12345678',
  sender_account_type: 'checking',
  sender_bank_code: '60701190',
  sender_branch_code: '0001',
  status: 'processing',
  ...overrides,
});

/** The X-Pix-Signature header of `body`, signed at `t` (seconds) with `key` (the webhook secret unless told). */
export const signNotification = (body: string, t = Math.floor(Date.now() / 1000), key = requireEnv('PIX_PROVIDER_WEBHOOK_SECRET')) =>
  `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
