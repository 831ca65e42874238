import { Injectable } from '@nestjs/common';
import { fail, ok, PixKeyAnswer, PixKeyStatusResult, Reply } from '@partner/contracts';
import { OutboxRelay } from '@partner/kafka';
import { PrismaService, Tx } from '../prisma/prisma.service';
import { fingerprintOf, Rejected, replayOf } from './idempotency';
import { IdempotencyRecordRepository, PixKeyOperation } from './idempotency-record.repository';

/** What a Pix key command did: its answer, the key it bound, and whether it wrote an event to relay. */
export interface PixKeyCommandOutcome {
  answer: PixKeyAnswer;
  pixKeyId: string;
  changed: boolean;
}

export interface PixKeyCommandClaim {
  partnerId: string;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
}

/**
 * The idempotent frame of every Pix key command, in one transaction: claim the idempotency key (a
 * retry replays the first answer; a concurrent duplicate waits on the claim), act, record the answer.
 * A `Rejected` thrown by `act` rolls everything back, so a refused request binds no key.
 */
@Injectable()
export class IdempotentCommandService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly idempotency: IdempotencyRecordRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async run(claim: PixKeyCommandClaim, act: (tx: Tx) => Promise<PixKeyCommandOutcome>): Promise<Reply<PixKeyStatusResult>> {
    const fingerprint = fingerprintOf(claim.operation, claim.document);
    try {
      const { reply, changed } = await this.prisma.$transaction(async (tx) => {
        const previous = await this.idempotency.claim(tx, { ...claim, fingerprint });
        if (previous) return { reply: replayOf(previous, fingerprint), changed: false };

        const outcome = await act(tx);
        await this.idempotency.answer(tx, claim.partnerId, claim.idempotencyKey, outcome.answer, outcome.pixKeyId);
        return { reply: ok<PixKeyStatusResult>({ status: outcome.answer }), changed: outcome.changed };
      });
      if (changed) this.relay.wake();
      return reply;
    } catch (error) {
      if (error instanceof Rejected) return fail(error.code, error.message);
      throw error;
    }
  }
}
