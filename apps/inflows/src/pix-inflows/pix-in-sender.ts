import { SenderAccountType } from '@partner/contracts';

/** The sender fields of an inflow (docs/api.md: "Pix inflows"), as announced, stored and answered. */
export interface SenderDetails {
  sender_name: string;
  sender_tax_id: string;
  sender_account_number: string;
  sender_account_type: SenderAccountType;
  sender_bank_code: string;
  sender_branch_code: string;
}

/** The sender's statement parameters, in the column order every inflows statement lists them. */
export const senderValues = (s: SenderDetails): string[] => [
  s.sender_name,
  s.sender_tax_id,
  s.sender_account_number,
  s.sender_account_type,
  s.sender_bank_code,
  s.sender_branch_code,
];

/** The sender fields picked off a row (or anything else that holds them), to answer or announce. */
export const senderOf = (s: SenderDetails): SenderDetails => ({
  sender_name: s.sender_name,
  sender_tax_id: s.sender_tax_id,
  sender_account_number: s.sender_account_number,
  sender_account_type: s.sender_account_type,
  sender_bank_code: s.sender_bank_code,
  sender_branch_code: s.sender_branch_code,
});

/** The sender fields as the aggregate (PixInflowRecord) names them. */
export interface SenderRecord {
  senderName: string;
  senderTaxId: string;
  senderAccountNumber: string;
  senderAccountType: SenderAccountType;
  senderBankCode: string;
  senderBranchCode: string;
}

export const senderRecordOf = (s: SenderDetails): SenderRecord => ({
  senderName: s.sender_name,
  senderTaxId: s.sender_tax_id,
  senderAccountNumber: s.sender_account_number,
  senderAccountType: s.sender_account_type,
  senderBankCode: s.sender_bank_code,
  senderBranchCode: s.sender_branch_code,
});
