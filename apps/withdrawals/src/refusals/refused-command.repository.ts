import { Injectable } from '@nestjs/common';
import { PartnerId } from '@partner/contracts';
import { Database, RefusalMemory, refusalMemoryOf } from '@partner/db';

/**
 * The commands of this service (withdrawals, credits) refused so far, by command id (`refused_commands`, schema.prisma says why): the
 * memory runIdempotent consults so that a copy of a refused command is refused again, never carried out.
 */
@Injectable()
export class RefusedCommandRepository {
  constructor(private readonly db: Database) {}

  /** The memory of one command of a partner's, for runIdempotent (none for a command without an id). */
  memoryOf(partnerId: PartnerId, commandId: string | undefined, idempotencyKey: string): RefusalMemory | undefined {
    return refusalMemoryOf(this.db, partnerId, commandId, idempotencyKey);
  }
}
