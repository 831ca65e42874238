import { Injectable } from '@nestjs/common';
import { CreatePixKeyCommand, fail, ok, PixKeyStatusResult, Reply } from '@partner/contracts';
import { OutboxRelay } from '@partner/kafka';
import { OutboxRepository } from '../prisma/outbox.repository';
import { PrismaService } from '../prisma/prisma.service';
import { UserRepository } from '../users/user.repository';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { fingerprintOf, Rejected, replayOf } from './idempotency';
import { stateChanged } from './pix-key-event';
import { PixKeyRepository } from './pix-key.repository';

/**
 * Requests the registration of the user's CPF as a Pix key (spec 4.4). In one transaction: claims the
 * idempotency key, checks the user, inserts the key `pending` (refused when the user already has an
 * active key, a pending one included) and writes the `pending` event. The simulated DICT answers later.
 */
@Injectable()
export class CreatePixKeyUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UserRepository,
    private readonly pixKeys: PixKeyRepository,
    private readonly idempotency: IdempotencyRecordRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(command: CreatePixKeyCommand): Promise<Reply<PixKeyStatusResult>> {
    const { partner_id: partnerId, document, idempotency_key: idempotencyKey } = command;
    const fingerprint = fingerprintOf('create', document);
    try {
      const { reply, changed } = await this.prisma.$transaction(async (tx) => {
        const previous = await this.idempotency.claim(tx, { partnerId, idempotencyKey, operation: 'create', document, fingerprint });
        if (previous) return { reply: replayOf(previous, fingerprint), changed: false };

        if (!(await this.users.exists(tx, partnerId, document))) {
          throw new Rejected('user_not_found', `no user with document ${document}`);
        }
        const key = await this.pixKeys.createPending(tx, partnerId, document);
        if (!key) throw new Rejected('already_exists', 'the user already has a Pix key (registered or being registered)');
        await this.outbox.add(tx, stateChanged(key));
        await this.idempotency.answer(tx, partnerId, idempotencyKey, 'accepted', key.id);
        return { reply: ok<PixKeyStatusResult>({ status: 'accepted' }), changed: true };
      });
      if (changed) this.relay.wake();
      return reply;
    } catch (error) {
      if (error instanceof Rejected) return fail(error.code, error.message);
      throw error;
    }
  }
}
