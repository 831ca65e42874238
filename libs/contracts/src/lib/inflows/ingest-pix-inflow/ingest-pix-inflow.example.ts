/**
 * A complete, valid body of POST /provider/v2/pix/inflows (the worked example of docs/api.md, "Pix provider
 * ingestion"): the OpenAPI example, and the base the tests change one field of. Plain data (a JSON body).
 */
export const INGEST_PIX_INFLOW_EXAMPLE = {
  end_to_end_id: 'E60701190202611260430Ab12Cd34Ef5',
  amount_cents: 25_000,
  method: 'dict',
  receiver_account: { ispb: '99999999', branch: '0001', number: '100000002', type: 'TRAN' },
  receiver_key: '52998224725',
  sender_name: 'Maria Souza',
  sender_tax_id: '39053344705',
  sender_account_number: '12345678',
  sender_account_type: 'checking',
  sender_bank_code: '60701190',
  sender_branch_code: '0001',
  status: 'processing',
} as const;
