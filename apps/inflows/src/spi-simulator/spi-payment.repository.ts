import { Injectable } from '@nestjs/common';
import {
  AccountType,
  authenticatedPartnerId,
  PartnerId,
  PixInMethod,
  PixInNotifiedStatus,
  PixReceivedEvent,
  SimulatedPixInOutcome,
} from '@partner/contracts';
import { Database, statement, Transaction } from '@partner/db';
import { senderOf, senderValues, SenderDetails } from '../pix-inflows/pix-in-sender';
import { SandboxPayment } from './sandbox-notification';

/**
 * One statement decides and logs: whether the network can reach the user (they exist under this
 * partner and, for a Pix by key, have a registered key in our replica: the payment goes to that key),
 * whether the request's idempotency key already sent a payment, and if neither stops it the payment's log
 * row, inserted in the same statement so the checks and the write see the same state. When the user cannot
 * be reached, or the key was taken, nothing is written (a key taken by a transaction this one could not see
 * yet: ON CONFLICT).
 */
const SEND = statement(
  'inflows_spi_payment_send',
  `WITH existing AS (
     SELECT end_to_end_id, fingerprint FROM spi_payments WHERE partner_id = $1::uuid AND idempotency_key = $15::uuid),
   registered_key AS (
     SELECT key FROM pix_key_replica WHERE partner_id = $1::uuid AND document = $2::bpchar AND state = 'registered'
     ORDER BY occurred_at DESC LIMIT 1),
   reach AS (
     SELECT EXISTS (SELECT 1 FROM users WHERE partner_id = $1::uuid AND document = $2::bpchar) AS user_known,
            ($4::text <> 'dict' OR EXISTS (SELECT 1 FROM registered_key)) AS key_ok,
            CASE WHEN $4::text = 'dict' THEN (SELECT key FROM registered_key) END AS receiver_key),
   logged AS (
     INSERT INTO spi_payments (partner_id, document, end_to_end_id, method, amount_cents, description, sender_name, sender_tax_id,
                               sender_account_number, sender_account_type, sender_bank_code, sender_branch_code, outcome, sent_at,
                               idempotency_key, fingerprint, receiver_key)
     SELECT $1::uuid, $2::bpchar, $3::bpchar, $4::text, $5::bigint, $6::text, $7::text, $8::text,
            $9::text, $10::text, $11::bpchar, $12::text, $13::text, $14::timestamptz, $15::uuid, $16::text, receiver_key
     FROM reach WHERE user_known AND key_ok AND NOT EXISTS (SELECT 1 FROM existing)
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING 1)
   SELECT user_known, key_ok, (SELECT count(*)::int FROM logged) AS logged,
          (SELECT end_to_end_id FROM existing) AS taken_end_to_end_id, (SELECT fingerprint FROM existing) AS taken_fingerprint
   FROM reach`,
);

const BY_KEY = statement(
  'inflows_spi_payment_by_key',
  'SELECT end_to_end_id, fingerprint FROM spi_payments WHERE partner_id = $1::uuid AND idempotency_key = $2::uuid',
);

/** A payment's columns as the network notifies it: its log row and the receiving user's account. */
const PAYMENT_COLUMNS = `s.partner_id, s.document, s.end_to_end_id, s.amount_cents, s.method, s.description, s.sender_name, s.sender_tax_id,
          s.sender_account_number, s.sender_account_type, s.sender_bank_code, s.sender_branch_code, s.outcome, s.receiver_key,
          a.branch AS receiver_branch, a.number AS receiver_number, a.type AS receiver_type`;

/**
 * The simulated settlement's work: up to $2 sandbox payments whose inflow has waited in a settling status
 * since before $1, oldest first (the (status, updated_at) index), each with that status. Only payments of
 * this network: an inflow the Pix provider notified has no spi_payments row, so the settlement never moves
 * it. Read without locks: the notification that moves an inflow locks it (IngestPixInflowUseCase), and a
 * stale read only repeats a status, which changes nothing.
 */
const DUE = statement(
  'inflows_spi_payment_due',
  `SELECT ${PAYMENT_COLUMNS}, p.status
   FROM pix_inflows p JOIN spi_payments s ON s.end_to_end_id = p.end_to_end_id AND s.partner_id = p.partner_id
   JOIN accounts a ON a.partner_id = s.partner_id AND a.document = s.document
   WHERE p.status IN ('processing', 'approved', 'success') AND p.updated_at <= $1
   ORDER BY p.updated_at LIMIT $2`,
);

/** A payment the network sent, with the account it paid: what its first notification names. */
const SENT = statement(
  'inflows_spi_payment_sent',
  `SELECT ${PAYMENT_COLUMNS}
   FROM spi_payments s JOIN accounts a ON a.partner_id = s.partner_id AND a.document = s.document
   WHERE s.end_to_end_id = $1`,
);

interface PaymentRow extends SenderDetails {
  partner_id: string;
  document: string;
  end_to_end_id: string;
  amount_cents: string;
  method: PixInMethod;
  description: string | null;
  outcome: SimulatedPixInOutcome;
  receiver_key: string | null;
  receiver_branch: string;
  receiver_number: string;
  receiver_type: AccountType;
}

const toPayment = (r: PaymentRow): SandboxPayment => ({
  partner_id: authenticatedPartnerId(r.partner_id),
  document: r.document,
  end_to_end_id: r.end_to_end_id,
  amount_cents: Number(r.amount_cents),
  method: r.method,
  ...(r.description !== null && { description: r.description }),
  ...senderOf(r),
  outcome: r.outcome,
  receiver: { branch: r.receiver_branch, number: r.receiver_number, type: r.receiver_type },
  ...(r.receiver_key !== null && { receiver_key: r.receiver_key }),
});

/** A sandbox payment whose inflow is due for its next settlement step, and the status it waits in. */
export interface DuePayment {
  payment: SandboxPayment;
  status: PixInNotifiedStatus;
}

/** The payment an idempotency key sent, and the fingerprint of the request that sent it. */
export interface KeyedPayment {
  end_to_end_id: string;
  fingerprint: string;
}

/** What sending did: sent now, refused, or found the key taken (its payment; null when committed after this statement's snapshot). */
export type SendOutcome = 'sent' | 'user_not_found' | 'pix_key_not_registered' | { taken: KeyedPayment | null };

/** The request's idempotency key and fingerprint, when it sent one. */
export interface PaymentKey {
  idempotencyKey: string;
  fingerprint: string;
}

/** The simulated network's log of the payments it sent. Scoped by partner. */
@Injectable()
export class SpiPaymentRepository {
  constructor(private readonly db: Database) {}

  /** Logs the payment if the network can reach its user and its key is free (see SEND); tells what happened. */
  async send(tx: Transaction, partnerId: PartnerId, payment: Omit<PixReceivedEvent, 'partner_id'>, key?: PaymentKey): Promise<SendOutcome> {
    const {
      rows: [reach],
    } = await tx.query<{
      user_known: boolean;
      key_ok: boolean;
      logged: number;
      taken_end_to_end_id: string | null;
      taken_fingerprint: string | null;
    }>(SEND, [
      partnerId,
      payment.document,
      payment.end_to_end_id,
      payment.method,
      payment.amount_cents,
      payment.description ?? null,
      ...senderValues(payment),
      payment.outcome,
      payment.sent_at,
      key?.idempotencyKey ?? null,
      key?.fingerprint ?? null,
    ]);
    if (reach.taken_end_to_end_id !== null)
      return { taken: { end_to_end_id: reach.taken_end_to_end_id, fingerprint: reach.taken_fingerprint ?? '' } };
    if (!reach.user_known) return 'user_not_found';
    if (!reach.key_ok) return 'pix_key_not_registered';
    return reach.logged > 0 ? 'sent' : { taken: null };
  }

  /** The payments whose inflow is due for its next step (see DUE). Every partner's: the settlement is one system process. */
  async dueForSettlement(before: Date, limit: number): Promise<DuePayment[]> {
    const { rows } = await this.db.query<PaymentRow & { status: PixInNotifiedStatus }>(DUE, [before, limit]);
    return rows.map((r) => ({ payment: toPayment(r), status: r.status }));
  }

  /** The payment the network sent with that end-to-end id, and the account it paid; null when it sent none. */
  async findSent(endToEndId: string): Promise<SandboxPayment | null> {
    const { rows } = await this.db.query<PaymentRow>(SENT, [endToEndId]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  /** The committed payment of a key, read afresh (after a concurrent request with the same key won). */
  async findByKey(partnerId: PartnerId, idempotencyKey: string): Promise<KeyedPayment | null> {
    const { rows } = await this.db.query<KeyedPayment>(BY_KEY, [partnerId, idempotencyKey]);
    return rows[0] ?? null;
  }
}
