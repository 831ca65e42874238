import { Injectable } from '@nestjs/common';
import { PixKeyAnswer } from '@partner/contracts';
import { Tx } from '../prisma/prisma.service';

export type PixKeyOperation = 'create' | 'delete';

export interface IdempotencyRecord {
  partnerId: string;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
  fingerprint: string;
  answer: PixKeyAnswer;
  pixKeyId: string | null;
}

export interface IdempotencyClaim {
  partnerId: string;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
  fingerprint: string;
}

/** The idempotency keys of each partner's Pix key commands and the first answer each one got. */
@Injectable()
export class IdempotencyRecordRepository {
  /**
   * Claims the key for this request, in the transaction that will act on it. Answers null when the key
   * is now ours, or the record of the request that had it first. A concurrent claim of the same key
   * waits on the primary key until the other transaction ends: if it committed, its record is
   * returned; if it rolled back (a refused request binds nothing), the key is ours.
   */
  async claim(tx: Tx, claim: IdempotencyClaim): Promise<IdempotencyRecord | null> {
    const { count } = await tx.idempotencyRecord.createMany({ data: [claim], skipDuplicates: true });
    if (count === 1) return null;
    const previous = await tx.idempotencyRecord.findUniqueOrThrow({
      where: { partnerId_idempotencyKey: { partnerId: claim.partnerId, idempotencyKey: claim.idempotencyKey } },
    });
    // A committed record always has its answer: it is written in the transaction that claimed the key.
    if (previous.answer === null) throw new Error(`idempotency record ${claim.idempotencyKey} committed without an answer`);
    return previous as IdempotencyRecord;
  }

  /** Records the answer of the request that claimed the key, before its transaction commits. */
  async answer(tx: Tx, partnerId: string, idempotencyKey: string, answer: PixKeyAnswer, pixKeyId: string): Promise<void> {
    await tx.idempotencyRecord.update({
      where: { partnerId_idempotencyKey: { partnerId, idempotencyKey } },
      data: { answer, pixKeyId },
    });
  }
}
