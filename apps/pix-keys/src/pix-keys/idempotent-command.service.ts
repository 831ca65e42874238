import { Injectable } from '@nestjs/common';
import { ErrorCode, fail, ok, PartnerId, PixKeyAnswer, PixKeyStatusResult, Reply } from '@partner/contracts';
import { Transaction, UnitOfWork } from '@partner/kafka';
import { fingerprintOf, Rejected, replayOf, Superseded } from './idempotency';
import { IdempotencyRecordRepository, PixKeyOperation } from './idempotency-record.repository';
import { Claim, Taken } from './pix-key.repository';

export interface PixKeyCommandClaim {
  partnerId: PartnerId;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
}

/** What a command's transaction did: the answer it recorded with its claim, or the key was taken. */
export type PixKeyCommandOutcome = { answer: PixKeyAnswer } | Taken;

/**
 * A decision taken on a view another transaction made stale is retried this many times. Each retry
 * follows a move that committed in between, and a key makes at most four, so this is never reached
 * but by a bug.
 */
const MAX_ATTEMPTS = 8;

/**
 * The idempotent frame of every Pix key command: one unit of work whose claiming statement claims the
 * idempotency key, acts and records the answer together (PixKeyRepository). A retry replays the first
 * answer; a concurrent duplicate waits on the claim, then replays. A `Rejected` thrown by `act` rolls
 * everything back, so a refused request binds no key; a `Superseded` one rolls back and runs again.
 */
@Injectable()
export class IdempotentCommandService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly idempotency: IdempotencyRecordRepository,
  ) {}

  /** `C`: the refusals of the calling command's topic (inferred from its return type); its `Rejected`s must be among them. */
  async run<C extends ErrorCode>(
    command: PixKeyCommandClaim,
    act: (tx: Transaction, claim: Claim) => Promise<PixKeyCommandOutcome>,
  ): Promise<Reply<PixKeyStatusResult, C | 'idempotency_key_reused'>> {
    const claim: Claim = { idempotencyKey: command.idempotencyKey, fingerprint: fingerprintOf(command.operation, command.document) };
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await this.unitOfWork.run((tx) => act(tx, claim));
        if ('answer' in outcome) return ok({ status: outcome.answer });
        return replayOf(outcome.taken ?? (await this.committed(command)), claim.fingerprint);
      } catch (error) {
        if (error instanceof Rejected) return fail(error.code as C, error.message);
        if (error instanceof Superseded && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  /**
   * The record of a key whose claim yielded to another transaction's while the claiming statement
   * waited: committed, but after that statement's snapshot. Records are never removed, so it is there.
   */
  private async committed({ partnerId, idempotencyKey }: PixKeyCommandClaim) {
    const record = await this.idempotency.find(partnerId, idempotencyKey);
    if (!record) throw new Error(`idempotency key ${idempotencyKey} was taken, yet no record of it is committed`);
    return record;
  }
}
