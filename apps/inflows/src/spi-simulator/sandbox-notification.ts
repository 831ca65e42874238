import { IngestPixInflowCommand, PixInNotifiedStatus, PixReceivedEvent, SimulatedPixInOutcome } from '@partner/contracts';
import type { AccountRef } from '../accounts/account.repository';

/**
 * A payment the simulated network sent (spi_payments), how the sandbox asked its settlement to end, and where
 * it went: the receiving user's account (at the operator's ISPB) and, for a Pix by key, the key it was sent to.
 */
export type SandboxPayment = Omit<PixReceivedEvent, 'sent_at'> & { receiver: AccountRef; receiver_key?: string };

/**
 * The notification the Pix provider would send for a sandbox payment at `status`: the body of POST
 * /provider/v2/pix/inflows as is, naming the receiving account (at `operatorIspb`) and key, never the partner
 * or the user, so the sandbox records and moves its inflows through the same use case
 * (IngestPixInflowUseCase) as the provider's route. The outcome stays with the simulated network.
 */
export function notificationOf(payment: SandboxPayment, operatorIspb: string, status: PixInNotifiedStatus): IngestPixInflowCommand {
  return {
    end_to_end_id: payment.end_to_end_id,
    amount_cents: payment.amount_cents,
    ...(payment.description !== undefined && { description: payment.description }),
    method: payment.method,
    receiver_account: { ispb: operatorIspb, ...payment.receiver },
    ...(payment.receiver_key !== undefined && { receiver_key: payment.receiver_key }),
    sender_name: payment.sender_name,
    sender_tax_id: payment.sender_tax_id,
    sender_account_number: payment.sender_account_number,
    sender_account_type: payment.sender_account_type,
    sender_bank_code: payment.sender_bank_code,
    sender_branch_code: payment.sender_branch_code,
    status,
  };
}

/** Each outcome's settlement (docs/api.md "Sandbox", `simulate_outcome`): the status notified after each one. */
const SETTLEMENT: Readonly<Record<SimulatedPixInOutcome, Partial<Record<PixInNotifiedStatus, PixInNotifiedStatus>>>> = {
  credited: { processing: 'approved', approved: 'success', success: 'credited' },
  denied: { processing: 'denied' },
  failed: { processing: 'approved', approved: 'failed' },
};

/** The status the simulated settlement notifies after `status` for a payment asked to end in `outcome`; null once it ended. */
export const nextStatus = (status: PixInNotifiedStatus, outcome: SimulatedPixInOutcome): PixInNotifiedStatus | null =>
  SETTLEMENT[outcome][status] ?? null;
