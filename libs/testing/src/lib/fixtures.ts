import { generateCPF } from '@brazilian-utils/brazilian-utils';
import { authenticatedPartnerId, BUSINESS_CUSTOMER_EXAMPLE, PartnerId } from '@partner/contracts';
import { randomUUID } from 'node:crypto';

/** A valid CPF, different on each call (unformatted, 11 digits). */
export const newCpf = (): string => generateCPF();

export const newUuid = (): string => randomUUID();

/**
 * A partner id for a spec, as authentication would vouch for it: a new one on each call, or `id` (a
 * partner the spec created, an id read back from a row). Specs never cast to PartnerId (lint refuses it).
 */
export const testPartnerId = (id: string = randomUUID()): PartnerId => authenticatedPartnerId(id);

/** A valid, EIP-55 checksummed destination (Vitalik's public address; anything checksummed works). */
export const VALID_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

/** The destination the simulated chain fails transfers to (CHAIN_FAIL_ADDRESSES default). */
export const FAILING_ADDRESS = '0x000000000000000000000000000000000000dEaD';

/** The environment a suite needs, or a clear failure naming the variable (npm test sets them all). */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suites through npm test, which starts the broker, database and stack`);
  return value;
}

/** A valid body for POST /partner/v1/withdrawals/usdt (1 USDT on Polygon, LOW fee), with overrides. */
export function withdrawalRequest<T extends Record<string, unknown>>(document: string, overrides?: T) {
  return {
    document,
    idempotency_key: newUuid(),
    address: VALID_ADDRESS,
    usdtmicros: 1_000_000,
    fee_choice: 'LOW' as const,
    network: 'MATIC' as const,
    ...overrides,
  };
}

/** The fields of a Pix inflow in docs/api.md ("Pix inflows"), in its order, and nothing else: what GET /partner/v1/pix-in and pix_in events carry. */
export const PIX_IN_SPEC_FIELDS: readonly string[] = [
  'amount_cents',
  'description',
  'end_to_end_id',
  'method',
  'sender_name',
  'sender_tax_id',
  'sender_account_number',
  'sender_account_type',
  'sender_bank_code',
  'sender_branch_code',
  'created_at',
  'last_updated_at',
  'status',
];

/** The fields of a USDT withdrawal as GET /partner/v1/withdrawals/usdt/{id} answers it (docs/api.md, "Withdrawals"), in the document's order. */
export const USDT_WITHDRAWAL_VIEW_FIELDS: readonly string[] = [
  'id',
  'document',
  'address',
  'network',
  'fee_choice',
  'usdtmicros',
  'fee_usdtmicros',
  'beneficiary',
  'state',
  'tx_hash',
  'block_number',
  'failure_reason',
  'report_id',
  'waiting_reason',
  'created_at',
  'last_updated_at',
];

/**
 * What the registered event (and so the feed) carries of a business customer registered with
 * BUSINESS_CUSTOMER_EXAMPLE's body: the owners without their personal details, their missing social
 * name as null. Specs add what their body changed (metadata) and what the service chose (created_at).
 */
export const registeredExampleCustomer = (id: string, cnpj: string) => ({
  id,
  cnpj,
  legal_name: 'Acme Pagamentos Ltda',
  trade_name: 'Acme',
  email: 'finance@acme.com.br',
  phone: '+551133334444',
  address: BUSINESS_CUSTOMER_EXAMPLE.address,
  owners: [
    {
      owner_type: 'partner',
      name: 'Maria da Silva',
      social_name: 'Maria',
      document: '52998224725',
      ownership: { ownership_type: 'direct', ownership_bps: 6000 },
    },
    {
      owner_type: 'representative',
      name: 'João Souza',
      social_name: null,
      document: '11144477735',
      ownership: { ownership_type: 'indirect', ownership_bps: 4000 },
    },
  ],
  config: { auto_send_owner_sms: true, auto_send_owner_email: false },
});
