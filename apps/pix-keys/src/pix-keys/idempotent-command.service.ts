import { Injectable } from '@nestjs/common';
import { ErrorCode, PartnerId, PixKeyAnswer, PixKeyCommandResult, PixKeyType, Reply } from '@partner/contracts';
import { runIdempotent, Transaction, UnitOfWork } from '@partner/db';
import { fingerprintOf } from './idempotency';
import { IdempotencyRecord, IdempotencyRecordRepository, PixKeyOperation } from './idempotency-record.repository';
import { Claim, Taken } from './pix-key.repository';

export interface PixKeyCommandClaim {
  partnerId: PartnerId;
  idempotencyKey: string;
  operation: PixKeyOperation;
  document: string;
  /** The holder's name a creation gives (part of what makes it the same request). */
  name?: string;
  /** A creation's key type (cpf when absent), and whether it asks for portability. */
  keyType?: PixKeyType;
  portability?: boolean;
  /** The command's own id (commandIdOf), so that a copy of it delivered again after a refusal is refused again. */
  commandId?: string;
}

/** What a command's transaction did: the answer it recorded with its claim, or the key was taken. */
export type PixKeyCommandOutcome = { answer: PixKeyAnswer } | Taken;

/**
 * The idempotent frame (runIdempotent) of every Pix key command: one unit of work whose claiming statement claims the
 * idempotency key, acts and records the answer together (PixKeyRepository). A retry replays the first
 * answer; a concurrent duplicate waits on the claim, then replays. A `Rejected` thrown by `act` rolls
 * everything back, so a refused request binds no key (its command id keeps the refusal for its copies); a `Superseded` one rolls back and runs again.
 */
@Injectable()
export class IdempotentCommandService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly idempotency: IdempotencyRecordRepository,
  ) {}

  /** `refusalCodes`: the refusals of the calling command's topic (requestRefusalsOf); its `Rejected`s must be among them. */
  run<C extends ErrorCode>(
    command: PixKeyCommandClaim,
    refusalCodes: readonly C[],
    act: (tx: Transaction, claim: Claim) => Promise<PixKeyCommandOutcome>,
  ): Promise<Reply<PixKeyCommandResult, C | 'idempotency_key_reused'>> {
    const claim: Claim = {
      idempotencyKey: command.idempotencyKey,
      fingerprint: fingerprintOf(command.operation, command.document, command.name, command.keyType, command.portability),
    };
    return runIdempotent<PixKeyCommandResult, IdempotencyRecord, C>({
      ...claim,
      refusalCodes,
      attempt: async () => {
        const outcome = await this.unitOfWork.run((tx) => act(tx, claim));
        return 'answer' in outcome ? { done: { status: outcome.answer, replayed: false } } : outcome;
      },
      // A claim that yielded to another transaction's while the claiming statement waited sees no
      // record: it committed after that statement's snapshot. Records are never removed, so it is there.
      find: () => this.idempotency.find(command.partnerId, command.idempotencyKey),
      fingerprintOf: (record) => record.fingerprint,
      replay: (record) => ({ status: record.answer, replayed: true }),
      refusals: this.idempotency.refusalsOf(command.partnerId, command.commandId, command.idempotencyKey),
    });
  }
}
