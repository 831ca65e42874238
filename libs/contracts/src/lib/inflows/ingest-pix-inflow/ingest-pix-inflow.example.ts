/**
 * A complete, valid body of POST /provider/v1/pix/inflows (the worked example of docs/api.md, "Pix provider
 * ingestion"): the OpenAPI example, and the base the tests change one field of. Plain data (a JSON body).
 */
export const INGEST_PIX_INFLOW_EXAMPLE = {
  partner_id: '7a0d1a2e-8a43-4c1e-9a0b-3f5c2a1d9e10',
  document: '52998224725',
  end_to_end_id: 'E60701190202611260430Ab12Cd34Ef5',
  amount_cents: 25_000,
  method: 'manual',
  sender_name: 'Maria Souza',
  sender_tax_id: '39053344705',
  sender_account_number: '12345678',
  sender_account_type: 'checking',
  sender_bank_code: '60701190',
  sender_branch_code: '0001',
  status: 'processing',
} as const;
