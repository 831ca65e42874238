import { Injectable } from '@nestjs/common';
import { PartnerId, PixReceivedEvent } from '@partner/contracts';
import { statement, Transaction } from '@partner/kafka';
import { senderValues } from '../pix-inflows/pix-in-sender';

/**
 * One statement decides and logs: whether the network can reach the user (they exist under this
 * partner and, for a Pix by key, have a registered key in our replica), and if so the payment's log
 * row, inserted in the same statement so the check and the write see the same state. When the user
 * cannot be reached nothing is written.
 */
const SEND = statement(
  'inflows_spi_payment_send',
  `WITH reach AS (
     SELECT EXISTS (SELECT 1 FROM users WHERE partner_id = $1::uuid AND document = $2::bpchar) AS user_known,
            ($4::text <> 'dict' OR EXISTS (SELECT 1 FROM pix_key_replica
                                           WHERE partner_id = $1::uuid AND document = $2::bpchar AND state = 'registered')) AS key_ok),
   logged AS (
     INSERT INTO spi_payments (partner_id, document, end_to_end_id, method, amount_cents, description, sender_name, sender_tax_id,
                               sender_account_number, sender_account_type, sender_bank_code, sender_branch_code, outcome, sent_at)
     SELECT $1::uuid, $2::bpchar, $3::bpchar, $4::text, $5::bigint, $6::text, $7::text, $8::text,
            $9::text, $10::text, $11::bpchar, $12::text, $13::text, $14::timestamptz
     FROM reach WHERE user_known AND key_ok
     RETURNING 1)
   SELECT user_known, key_ok FROM reach`,
);

export type SendOutcome = 'sent' | 'user_not_found' | 'pix_key_not_registered';

/** The simulated network's log of the payments it sent. Scoped by partner. */
@Injectable()
export class SpiPaymentRepository {
  /** Logs the payment if the network can reach its user (see SEND); tells what happened. */
  async send(tx: Transaction, partnerId: PartnerId, payment: Omit<PixReceivedEvent, 'partner_id'>): Promise<SendOutcome> {
    const [reach] = await tx.rows<{ user_known: boolean; key_ok: boolean }>(SEND, [
      partnerId,
      payment.document,
      payment.end_to_end_id,
      payment.method,
      payment.amount_cents,
      payment.description ?? null,
      ...senderValues(payment),
      payment.outcome,
      payment.sent_at,
    ]);
    if (!reach.user_known) return 'user_not_found';
    if (!reach.key_ok) return 'pix_key_not_registered';
    return 'sent';
  }
}
