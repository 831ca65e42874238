import { Injectable } from '@nestjs/common';
import { DeletePixKeyCommand, requestRefusalsOf, RequestReply, Topics } from '@partner/contracts';
import { Rejected, Superseded } from '@partner/db';
import { IdempotentCommandService } from './idempotent-command.service';
import { stateChanged } from './pix-key-event';
import { PixKeyRepository } from './pix-key.repository';

/**
 * Requests the deletion of the user's Pix key (docs/api.md: "Pix keys"), in one transaction of one statement
 * (PixKeyRepository.requestDeletionClaimed), which moves the key only if it is still as it was seen:
 * - a `registered` key moves to `deleting` with its event: `accepted`;
 * - a key still `pending` is marked for deletion and deleted as soon as the DICT registers it: `accepted`
 *   (the partner need not wait for the registration to ask);
 * - a key being deleted, or already marked: `already_sent`;
 * - no active key: `succeeded` when the user's last key was canceled, else `not_found` (never had one,
 *   or the last registration failed, so nothing was ever registered).
 * When another transaction moved the key after the statement saw it, nothing is kept and the command
 * decides again on what is there now.
 */
@Injectable()
export class DeletePixKeyUseCase {
  constructor(
    private readonly idempotent: IdempotentCommandService,
    private readonly pixKeys: PixKeyRepository,
  ) {}

  /** `commandId`: the command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  execute(
    { partner_id: partnerId, document, idempotency_key: idempotencyKey }: DeletePixKeyCommand,
    commandId?: string,
  ): Promise<RequestReply<typeof Topics.PixKeysDelete>> {
    return this.idempotent.run(
      { partnerId, idempotencyKey, operation: 'delete', document, commandId },
      requestRefusalsOf(Topics.PixKeysDelete),
      async (tx, claim) => {
        const outcome = await this.pixKeys.requestDeletionClaimed(tx, partnerId, document, claim, new Date());
        if (outcome === 'not_found') throw new Rejected('not_found', `no Pix key for document ${document}`);
        if (outcome === 'superseded') throw new Superseded();
        if ('taken' in outcome) return outcome;
        // A pending key only gets marked: its move, and its event, come when the DICT registers it.
        if (outcome.moved?.state === 'deleting') tx.emit(stateChanged(outcome.moved));
        return { answer: outcome.answer };
      },
    );
  }
}
