import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreatePixKeyCommand, requestRefusalsOf, RequestReply, Topics } from '@partner/contracts';
import { Rejected } from '@partner/db';
import { IdempotentCommandService } from './idempotent-command.service';
import { stateChanged } from './pix-key-event';
import { PixKeyRepository } from './pix-key.repository';

/**
 * Requests the registration of the user's CPF as a Pix key (docs/api.md: "Pix keys"). In one transaction of one
 * statement (PixKeyRepository.createClaimed): claims the idempotency key, checks the user, inserts the
 * key `pending` (refused when the user already has an active key, a pending one included) with the user's
 * holder name and account and a fresh DICT RequestId; then the `pending` event, which the unit of work writes
 * to the outbox before COMMIT. The DICT queue (dict/process-dict-queue.use-case.ts) registers it in DICT
 * afterwards, or fails it with its reason.
 */
@Injectable()
export class CreatePixKeyUseCase {
  constructor(
    private readonly idempotent: IdempotentCommandService,
    private readonly pixKeys: PixKeyRepository,
  ) {}

  /** `commandId`: the command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  execute(
    { partner_id: partnerId, document, idempotency_key: idempotencyKey }: CreatePixKeyCommand,
    commandId?: string,
  ): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return this.idempotent.run(
      { partnerId, idempotencyKey, operation: 'create', document, commandId },
      requestRefusalsOf(Topics.PixKeysCreate),
      async (tx, claim) => {
        const outcome = await this.pixKeys.createClaimed(tx, partnerId, document, claim, randomUUID(), randomUUID());
        if (outcome === 'user_not_found') throw new Rejected('user_not_found', `no user with document ${document}`);
        if (outcome === 'already_exists')
          throw new Rejected('already_exists', 'the user already has a Pix key (registered or being registered)');
        if ('taken' in outcome) return outcome;
        tx.emit(stateChanged(outcome.created));
        return { answer: 'accepted' };
      },
    );
  }
}
