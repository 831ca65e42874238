import { Injectable } from '@nestjs/common';
import { fail, ok, PixReceivedEvent, RequestReply, SimulatePixInCommand, Topics } from '@partner/contracts';
import { outboxMessage, UnitOfWork } from '@partner/kafka';
import { newEndToEndId } from './end-to-end-id';
import { completeSender } from './sender-details';
import { SpiPaymentRepository } from './spi-payment.repository';

/**
 * The simulated Pix network sending a payment to one of our users (sandbox). Like the real SPI, it only
 * reaches accounts that exist, and a payment by key (`dict`) needs the key to be in the directory (our
 * replica of the user's registered key). It completes the sender, gives the payment its end-to-end id,
 * and announces it on the network's topic: the checks, the payment log and the announcement are one
 * unit of work (one statement, then the announcement's outbox row before COMMIT). Recording the inflow
 * is then the inflows side's job, as it would be for a real incoming Pix.
 */
@Injectable()
export class SimulatePixInUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payments: SpiPaymentRepository,
  ) {}

  async execute(command: SimulatePixInCommand): Promise<RequestReply<typeof Topics.InflowsSimulatePixIn>> {
    const { partner_id: partnerId, document } = command;
    const method = command.method ?? 'manual';
    const sentAt = new Date();
    const sender = completeSender(command);
    const payment: Omit<PixReceivedEvent, 'partner_id'> = {
      document,
      end_to_end_id: newEndToEndId(sender.sender_bank_code, sentAt),
      amount_cents: command.amount_cents,
      method,
      ...(command.description !== undefined && { description: command.description }),
      ...sender,
      outcome: command.simulate_outcome ?? 'credited',
      sent_at: sentAt.toISOString(),
    };
    // A refusal writes nothing and emits nothing, so its transaction commits empty and wakes no relay.
    const outcome = await this.unitOfWork.run(async (tx) => {
      const sent = await this.payments.send(tx, partnerId, payment);
      if (sent === 'sent') tx.emit(outboxMessage(Topics.SpiPixReceived, { partner_id: partnerId, ...payment }));
      return sent;
    });
    if (outcome === 'user_not_found') return fail('user_not_found', `no user with document ${document}`);
    if (outcome === 'pix_key_not_registered') {
      return fail(
        'pix_key_not_registered',
        `user ${document} has no registered Pix key, so a Pix by key (method dict) cannot reach them; register a key or use another method`,
      );
    }
    return ok({ end_to_end_id: payment.end_to_end_id });
  }
}
