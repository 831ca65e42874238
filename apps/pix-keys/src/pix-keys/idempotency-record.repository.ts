import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId, PixKeyAnswer } from '@partner/contracts';
import { Database, RefusalMemory, refusalMemoryOf, statement } from '@partner/db';

export type PixKeyOperation = 'create' | 'delete';

export interface IdempotencyRecord {
  partnerId: PartnerId;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
  fingerprint: string;
  answer: PixKeyAnswer;
  pixKeyId: string | null;
}

/** The columns of `idempotency_records` a replay needs, as the driver returns them. */
export interface IdempotencyRow {
  partner_id: string;
  idempotency_key: string;
  operation: PixKeyOperation;
  document: string;
  fingerprint: string;
  answer: PixKeyAnswer | null;
  pix_key_id: string | null;
}

/**
 * A record as a replay sees it. A committed record always has its answer: it is written in the
 * transaction that claimed the key (by the claiming statement itself), so an empty one is a bug.
 */
export function toIdempotencyRecord(r: IdempotencyRow): IdempotencyRecord {
  if (r.answer === null) throw new Error(`idempotency record ${r.idempotency_key} committed without an answer`);
  return {
    partnerId: authenticatedPartnerId(r.partner_id),
    idempotencyKey: r.idempotency_key,
    operation: r.operation,
    document: r.document,
    fingerprint: r.fingerprint,
    answer: r.answer,
    pixKeyId: r.pix_key_id,
  };
}

const FIND = statement(
  'pix_keys_idempotency_find',
  `SELECT partner_id, idempotency_key, operation, document, fingerprint, answer, pix_key_id
   FROM idempotency_records WHERE partner_id = $1 AND idempotency_key = $2`,
);

/**
 * The idempotency keys of each partner's Pix key commands and the first answer each one got. Keys are
 * claimed by the commands' own statements (PixKeyRepository), in the transaction that acts on them;
 * this reads a record back for a replay.
 */
@Injectable()
export class IdempotencyRecordRepository {
  constructor(private readonly db: Database) {}

  /** The committed record of a key, read outside any transaction (a fresh snapshot). */
  async find(partnerId: PartnerId, idempotencyKey: string): Promise<IdempotencyRecord | null> {
    const { rows } = await this.db.query<IdempotencyRow>(FIND, [partnerId, idempotencyKey]);
    return rows[0] ? toIdempotencyRecord(rows[0]) : null;
  }

  /**
   * Where a refused command is kept by its id (`refused_commands`, schema.prisma says why), so that a copy
   * of it delivered again is refused again: a refusal binds no key. None for a command without an id.
   */
  refusalsOf(partnerId: PartnerId, commandId: string | undefined, idempotencyKey: string): RefusalMemory | undefined {
    return refusalMemoryOf(this.db, partnerId, commandId, idempotencyKey);
  }
}
