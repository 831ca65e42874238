import { Injectable } from '@nestjs/common';
import { fail, ok, PixReceivedEvent, Reply, SimulatePixInCommand, SimulatePixInResult, Topics } from '@partner/contracts';
import { outboxMessage, OutboxRelay, OutboxRepository } from '@partner/kafka';
import { PixKeyReplicaRepository } from '../pix-key-replica/pix-key-replica.repository';
import { PrismaService } from '../prisma/prisma.service';
import { UserRepository } from '../users/user.repository';
import { newEndToEndId } from './end-to-end-id';
import { completeSender } from './sender-details';
import { SpiPaymentRepository } from './spi-payment.repository';

/**
 * The simulated Pix network sending a payment to one of our users (sandbox). Like the real SPI, it only
 * reaches accounts that exist, and a payment by key (`dict`) needs the key to be in the directory (our
 * replica of the user's registered key). It completes the sender, gives the payment its end-to-end id,
 * and announces it on the network's topic: the payment log and the announcement are one transaction.
 * Recording the inflow is then the inflows side's job, as it would be for a real incoming Pix.
 */
@Injectable()
export class SimulatePixInUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UserRepository,
    private readonly keys: PixKeyReplicaRepository,
    private readonly payments: SpiPaymentRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(command: SimulatePixInCommand): Promise<Reply<SimulatePixInResult>> {
    const { partner_id: partnerId, document } = command;
    if (!(await this.users.exists(partnerId, document))) return fail('user_not_found', `no user with document ${document}`);
    const method = command.method ?? 'manual';
    if (method === 'dict' && !(await this.keys.hasRegisteredKey(partnerId, document))) {
      return fail(
        'pix_key_not_registered',
        `user ${document} has no registered Pix key, so a Pix by key (method dict) cannot reach them; register a key or use another method`,
      );
    }

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
    await this.prisma.$transaction(async (tx) => {
      await this.payments.record(tx, partnerId, payment);
      // Keyed by end-to-end id: all that concerns one payment stays on one partition.
      await this.outbox.add(tx, outboxMessage(Topics.SpiPixReceived, payment.end_to_end_id, { partner_id: partnerId, ...payment }));
    });
    this.relay.wake();
    return ok({ end_to_end_id: payment.end_to_end_id });
  }
}
