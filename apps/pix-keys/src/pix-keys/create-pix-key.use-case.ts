import { Injectable } from '@nestjs/common';
import { CreatePixKeyCommand, PixKeyStatusResult, Reply } from '@partner/contracts';
import { OutboxRepository } from '@partner/kafka';
import { UserRepository } from '../users/user.repository';
import { Rejected } from './idempotency';
import { IdempotentCommandService } from './idempotent-command.service';
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
    private readonly idempotent: IdempotentCommandService,
    private readonly users: UserRepository,
    private readonly pixKeys: PixKeyRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  execute({ partner_id: partnerId, document, idempotency_key: idempotencyKey }: CreatePixKeyCommand): Promise<Reply<PixKeyStatusResult>> {
    return this.idempotent.run({ partnerId, idempotencyKey, operation: 'create', document }, async (tx) => {
      if (!(await this.users.exists(tx, partnerId, document))) {
        throw new Rejected('user_not_found', `no user with document ${document}`);
      }
      const key = await this.pixKeys.createPending(tx, partnerId, document);
      if (!key) throw new Rejected('already_exists', 'the user already has a Pix key (registered or being registered)');
      await this.outbox.add(tx, stateChanged(key));
      return { answer: 'accepted', pixKeyId: key.id, changed: true };
    });
  }
}
