import { Injectable } from '@nestjs/common';
import { ErrorCode, PartnerId } from '@partner/contracts';
import { Refusal, RefusalMemory, statement } from '@partner/kafka';
import { PrismaService } from '../prisma/prisma.service';

const FIND = statement('refused_command_find', 'SELECT code, message FROM refused_commands WHERE command_id = $1 AND partner_id = $2');
const KEEP = statement(
  'refused_command_keep',
  'INSERT INTO refused_commands (command_id, partner_id, idempotency_key, code, message) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (command_id) DO NOTHING',
);

/**
 * The withdrawal commands refused so far, by command id (`refused_commands`, schema.prisma says why): the
 * memory runIdempotent consults so that a copy of a refused command is refused again, never carried out.
 */
@Injectable()
export class RefusedCommandRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The memory of one command of a partner's, for runIdempotent. */
  memoryOf(partnerId: PartnerId, commandId: string, idempotencyKey: string): RefusalMemory {
    return {
      recall: async (): Promise<Refusal | null> => {
        const { rows } = await this.prisma.pool.query<{ code: ErrorCode; message: string }>({ name: FIND.name, text: FIND.text, values: [commandId, partnerId] });
        return rows[0] ?? null;
      },
      keep: async ({ code, message }: Refusal): Promise<void> => {
        await this.prisma.pool.query({ name: KEEP.name, text: KEEP.text, values: [commandId, partnerId, idempotencyKey, code, message] });
      },
    };
  }
}
