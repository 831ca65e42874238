import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreatePixKeyCommand, isDictName, requestRefusalsOf, RequestReply, Topics } from '@partner/contracts';
import { Rejected } from '@partner/db';
import { IdempotentCommandService } from './idempotent-command.service';
import { stateChanged } from './pix-key-event';
import { PixKeyRepository } from './pix-key.repository';

/**
 * Requests the registration of the user's CPF as a Pix key, or of a random key DICT generates (`key_type: evp`)
 * (docs/api.md: "Pix keys"). In one transaction of one
 * statement (PixKeyRepository.createClaimed): claims the idempotency key, checks the user, sets the user's
 * holder name when the request gives one, inserts the key `pending` (refused when the user already has an
 * active key, a pending one included) with the holder name and account and a fresh DICT RequestId; then the
 * `pending` event, which the unit of work writes to the outbox before COMMIT. A key whose holder name DICT
 * could only refuse (none, or one outside DICT's rule) is refused here, at request time, and the transaction
 * rolls back: nothing is accepted that can only fail. The DICT queue (dict/process-dict-queue.use-case.ts)
 * registers it in DICT afterwards, or fails it with its reason.
 */
@Injectable()
export class CreatePixKeyUseCase {
  constructor(
    private readonly idempotent: IdempotentCommandService,
    private readonly pixKeys: PixKeyRepository,
  ) {}

  /** `commandId`: the command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  execute(
    { partner_id: partnerId, document, idempotency_key: idempotencyKey, name, key_type: keyType = 'cpf', portability }: CreatePixKeyCommand,
    commandId?: string,
  ): Promise<RequestReply<typeof Topics.PixKeysCreate>> {
    return this.idempotent.run(
      { partnerId, idempotencyKey, operation: 'create', document, name, keyType, portability, commandId },
      requestRefusalsOf(Topics.PixKeysCreate),
      async (tx, claim) => {
        const outcome = await this.pixKeys.createClaimed(
          tx,
          partnerId,
          document,
          claim,
          randomUUID(),
          randomUUID(),
          name,
          keyType,
          portability,
        );
        if (outcome === 'user_not_found') throw new Rejected('user_not_found', `no user with document ${document}`);
        if (outcome === 'already_exists')
          throw new Rejected('already_exists', 'the user already has a Pix key (registered or being registered)');
        if ('taken' in outcome) return outcome;
        const { holderName } = outcome.created;
        if (holderName === null)
          throw new Rejected(
            'holder_name_missing',
            "the user has no holder's name, which DICT records with the key: give name in the request, or have the operator register the user with one",
            'name',
          );
        // Only a name on file can be outside the rule: one given in the request was held to it by the contract.
        if (!isDictName(holderName))
          throw new Rejected(
            'holder_name_invalid',
            "the user's holder name on file is not one DICT takes (letters, accented ones included, spaces, ' and -, up to 120): give name in the request",
            'name',
          );
        tx.emit(stateChanged(outcome.created));
        return { answer: 'accepted' };
      },
    );
  }
}
