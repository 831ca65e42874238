/** Spec 2.4 value sets. */
export const PIX_IN_METHODS = ['manual', 'dict', 'static_qr_code', 'dynamic_qr_code', 'payer_qr_code', 'initiator'] as const;
export type PixInMethod = (typeof PIX_IN_METHODS)[number];

export const SENDER_ACCOUNT_TYPES = ['checking', 'savings', 'payment', 'salary'] as const;
export type SenderAccountType = (typeof SENDER_ACCOUNT_TYPES)[number];

export const PIX_IN_STATUSES = ['processing', 'approved', 'denied', 'success', 'credited', 'failed'] as const;
export type PixInStatus = (typeof PIX_IN_STATUSES)[number];

/** A Pix inflow exactly as spec 2.4 lists it (GET /partner/v1/pix-in, and the data of pix_in events). */
export interface PixInflow {
  amount_cents: number;
  description?: string;
  end_to_end_id: string;
  method: PixInMethod;
  sender_name: string;
  sender_tax_id: string;
  sender_account_number: string;
  sender_account_type: SenderAccountType;
  sender_bank_code: string;
  sender_branch_code: string;
  created_at: number;
  last_updated_at: number;
  status: PixInStatus;
}
