import { Injectable } from '@nestjs/common';
import { DeletePixKeyCommand, PixKeyAnswer, PixKeyStatusResult, Reply } from '@partner/contracts';
import { OutboxRepository } from '@partner/kafka';
import { Tx } from '../prisma/prisma.service';
import { Rejected } from './idempotency';
import { IdempotentCommandService } from './idempotent-command.service';
import { stateChanged } from './pix-key-event';
import { PixKey, PixKeyRepository } from './pix-key.repository';

/**
 * Requests the deletion of the user's Pix key (spec 4.3). In one transaction, with the user's active key
 * locked so that the simulated DICT cannot move it meanwhile:
 * - a `registered` key moves to `deleting` with its event: `accepted`;
 * - a key still `pending` is marked for deletion and deleted as soon as the DICT registers it: `accepted`
 *   (the partner need not wait for the registration to ask);
 * - a key being deleted, or already marked: `already_sent`;
 * - no active key: `succeeded` when the user's last key was canceled, else `not_found` (never had one,
 *   or the last registration failed, so nothing was ever registered).
 */
@Injectable()
export class DeletePixKeyUseCase {
  constructor(
    private readonly idempotent: IdempotentCommandService,
    private readonly pixKeys: PixKeyRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  execute({ partner_id: partnerId, document, idempotency_key: idempotencyKey }: DeletePixKeyCommand): Promise<Reply<PixKeyStatusResult>> {
    return this.idempotent.run({ partnerId, idempotencyKey, operation: 'delete', document }, async (tx) => {
      const { answer, key, changed } = await this.decide(tx, partnerId, document);
      return { answer, pixKeyId: key.id, changed };
    });
  }

  private async decide(tx: Tx, partnerId: string, document: string): Promise<{ answer: PixKeyAnswer; key: PixKey; changed: boolean }> {
    const active = await this.pixKeys.lockActive(tx, partnerId, document);
    if (!active) {
      const last = await this.pixKeys.findLatest(tx, partnerId, document);
      if (last?.state === 'canceled') return { answer: 'succeeded', key: last, changed: false };
      throw new Rejected('not_found', `no Pix key for document ${document}`);
    }
    if (active.state === 'deleting' || active.deletionRequestedAt !== null) return { answer: 'already_sent', key: active, changed: false };
    if (active.state === 'pending') {
      await this.pixKeys.requestDeletion(tx, partnerId, active.id);
      return { answer: 'accepted', key: active, changed: false };
    }
    const deleting = await this.pixKeys.transition(tx, partnerId, active.id, 'registered', 'deleting', { deletionRequestedAt: new Date() });
    // The row is locked, so its state cannot have changed since it was read.
    if (!deleting) throw new Error(`Pix key ${active.id} left state registered while locked`);
    await this.outbox.add(tx, stateChanged(deleting));
    return { answer: 'accepted', key: deleting, changed: true };
  }
}
