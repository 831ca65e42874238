import { Injectable } from '@nestjs/common';
import { PixReceivedEvent } from '@partner/contracts';
import { Tx } from '../prisma/prisma.service';

/** The simulated network's log of the payments it sent. Scoped by partner. */
@Injectable()
export class SpiPaymentRepository {
  async record(tx: Tx, partnerId: string, payment: Omit<PixReceivedEvent, 'partner_id'>): Promise<void> {
    await tx.spiPayment.create({
      data: {
        partnerId,
        endToEndId: payment.end_to_end_id,
        document: payment.document,
        amountCents: BigInt(payment.amount_cents),
        method: payment.method,
        description: payment.description ?? null,
        senderName: payment.sender_name,
        senderTaxId: payment.sender_tax_id,
        senderAccountNumber: payment.sender_account_number,
        senderAccountType: payment.sender_account_type,
        senderBankCode: payment.sender_bank_code,
        senderBranchCode: payment.sender_branch_code,
        outcome: payment.outcome,
        sentAt: new Date(payment.sent_at),
      },
    });
  }
}
