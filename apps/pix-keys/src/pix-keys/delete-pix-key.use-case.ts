import { Injectable } from '@nestjs/common';
import { DeletePixKeyCommand, fail, ok, PixKeyAnswer, PixKeyStatusResult, Reply } from '@partner/contracts';
import { OutboxRelay } from '@partner/kafka';
import { OutboxRepository } from '../prisma/outbox.repository';
import { PrismaService, Tx } from '../prisma/prisma.service';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { fingerprintOf, Rejected, replayOf } from './idempotency';
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
    private readonly prisma: PrismaService,
    private readonly pixKeys: PixKeyRepository,
    private readonly idempotency: IdempotencyRecordRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(command: DeletePixKeyCommand): Promise<Reply<PixKeyStatusResult>> {
    const { partner_id: partnerId, document, idempotency_key: idempotencyKey } = command;
    const fingerprint = fingerprintOf('delete', document);
    try {
      const { reply, changed } = await this.prisma.$transaction(async (tx) => {
        const previous = await this.idempotency.claim(tx, { partnerId, idempotencyKey, operation: 'delete', document, fingerprint });
        if (previous) return { reply: replayOf(previous, fingerprint), changed: false };

        const { answer, key, changed } = await this.decide(tx, partnerId, document);
        await this.idempotency.answer(tx, partnerId, idempotencyKey, answer, key.id);
        return { reply: ok<PixKeyStatusResult>({ status: answer }), changed };
      });
      if (changed) this.relay.wake();
      return reply;
    } catch (error) {
      if (error instanceof Rejected) return fail(error.code, error.message);
      throw error;
    }
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
