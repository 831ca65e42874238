import { Injectable, Logger } from '@nestjs/common';
import { PixKeyState } from '@partner/contracts';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PrismaService } from '../prisma/prisma.service';
import { stateChanged } from '../pix-keys/pix-key-event';
import { PixKeyRepository } from '../pix-keys/pix-key.repository';

const BATCH = 200;

/** Why the simulated DICT refuses a registration (the CPFs of PIX_DICT_FAIL_DOCUMENTS). */
export const DICT_REJECTED = 'dict_rejected';

/**
 * The simulated DICT (the Central Bank's directory of Pix keys). After PIX_DICT_DELAY_MS it answers a
 * registration (`pending` → `registered`, or `failed` for the CPFs of PIX_DICT_FAIL_DOCUMENTS) and a
 * deletion (`deleting` → `canceled`). A registered key whose deletion was asked for while it was pending
 * moves to `deleting` at once. Each move is one transaction with its event; a move another instance
 * already made is skipped, so any number of instances may run.
 */
@Injectable()
export class AdvancePixKeysUseCase {
  private readonly logger = new Logger(AdvancePixKeysUseCase.name);

  constructor(
    private readonly config: PixKeysConfig,
    private readonly prisma: PrismaService,
    private readonly pixKeys: PixKeyRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /** Makes every move that is due at `now`; returns how many keys moved. */
  async execute(now = new Date()): Promise<number> {
    const answeredBefore = new Date(now.getTime() - this.config.PIX_DICT_DELAY_MS);
    let moved = 0;
    for (const k of await this.pixKeys.findDueAcrossPartners('pending', answeredBefore, BATCH)) {
      const refused = this.config.PIX_DICT_FAIL_DOCUMENTS.includes(k.document);
      moved += refused
        ? await this.move(k.partnerId, k.id, 'pending', 'failed', DICT_REJECTED)
        : await this.move(k.partnerId, k.id, 'pending', 'registered');
    }
    for (const k of await this.pixKeys.findDeletionRequestedAcrossPartners(BATCH)) {
      moved += await this.move(k.partnerId, k.id, 'registered', 'deleting');
    }
    for (const k of await this.pixKeys.findDueAcrossPartners('deleting', answeredBefore, BATCH)) {
      moved += await this.move(k.partnerId, k.id, 'deleting', 'canceled');
    }
    if (moved > 0) this.relay.wake();
    return moved;
  }

  private async move(partnerId: string, id: string, from: PixKeyState, to: PixKeyState, failureReason?: string): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const k = await this.pixKeys.transition(tx, partnerId, id, from, to, failureReason ? { failureReason } : {});
      if (!k) return 0;
      await this.outbox.add(tx, stateChanged(k));
      if (to === 'failed') this.logger.log(`Pix key ${id} refused by the DICT: ${failureReason}`);
      return 1;
    });
  }
}
