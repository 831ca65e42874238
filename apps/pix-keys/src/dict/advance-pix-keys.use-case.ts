import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@partner/db';
import { PixKeysConfig } from '../config/pix-keys.config';
import { stateChanged } from '../pix-keys/pix-key-event';
import { PixKeyRepository } from '../pix-keys/pix-key.repository';

/** Keys moved per kind of answer per transaction: one statement moves them all, and their events go out together. */
const BATCH = 200;

/** Why the simulated DICT refuses a registration (the CPFs of PIX_DICT_FAIL_DOCUMENTS). */
export const DICT_REJECTED = 'dict_rejected';

/**
 * The simulated DICT (the Central Bank's directory of Pix keys). After PIX_DICT_DELAY_MS it answers a
 * registration (`pending` → `registered`, or `failed` for the CPFs of PIX_DICT_FAIL_DOCUMENTS) and a
 * deletion (`deleting` → `canceled`). A registered key whose deletion was asked for while it was pending
 * moves to `deleting` at once. Each round is one transaction of one statement (PixKeyRepository.advanceDue)
 * with the events of every move it made; rows are claimed with SKIP LOCKED and moved only from the state
 * they were due in, so any number of instances may run and a move is never made twice.
 */
@Injectable()
export class AdvancePixKeysUseCase {
  private readonly logger = new Logger(AdvancePixKeysUseCase.name);

  constructor(
    private readonly config: PixKeysConfig,
    private readonly unitOfWork: UnitOfWork,
    private readonly pixKeys: PixKeyRepository,
  ) {}

  /** Makes every move that is due at `now`; returns how many keys moved. */
  async execute(now = new Date()): Promise<number> {
    const answeredBefore = new Date(now.getTime() - this.config.PIX_DICT_DELAY_MS);
    let moved = 0;
    for (;;) {
      const round = await this.unitOfWork.run(async (tx) => {
        const keys = await this.pixKeys.advanceDue(
          tx,
          answeredBefore,
          BATCH,
          this.config.PIX_DICT_FAIL_DOCUMENTS,
          DICT_REJECTED,
          new Date(),
        );
        for (const k of keys) {
          tx.emit(stateChanged(k));
          if (k.state === 'failed') this.logger.log(`Pix key ${k.id} refused by the DICT: ${k.failureReason}`);
        }
        return keys;
      });
      moved += round.length;
      if (!this.another(round)) return moved;
    }
  }

  /**
   * Whether a round left moves due: a kind that filled its batch, or a key just registered whose
   * deletion was asked for while pending (the statement saw it pending, so its `deleting` is the next
   * round's, and is due at once).
   */
  private another(round: Array<{ state: string; deletionRequestedAt: Date | null }>): boolean {
    const count = (states: string[]) => round.filter((k) => states.includes(k.state)).length;
    if (count(['registered', 'failed']) >= BATCH || count(['deleting']) >= BATCH || count(['canceled']) >= BATCH) return true;
    return round.some((k) => k.state === 'registered' && k.deletionRequestedAt !== null);
  }
}
