import { Injectable } from '@nestjs/common';
import { PIX_KEY_STATES, PixKeyState } from '@partner/contracts';
import { PrismaService, Tx } from '../prisma/prisma.service';

/**
 * The local replica of the pix-keys service's keys (one row per key id). Scoped by partner. Writes keep
 * the newest state: an event older than the stored one (by occurred_at, then by lifecycle order for
 * events of the same millisecond) changes nothing, so redeliveries and late arrivals are harmless.
 */
@Injectable()
export class PixKeyReplicaRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Records `state` for the key unless a newer state is already known; tells whether it was applied. */
  async apply(partnerId: string, key: { keyId: string; document: string; state: PixKeyState; occurredAt: Date }): Promise<boolean> {
    const lifecycle = [...PIX_KEY_STATES];
    const applied = await this.prisma.$executeRaw`
      INSERT INTO "inflows"."pix_key_replica" (partner_id, key_id, document, state, occurred_at, updated_at)
      VALUES (${partnerId}::uuid, ${key.keyId}, ${key.document}, ${key.state}, ${key.occurredAt}, now())
      ON CONFLICT (partner_id, key_id) DO UPDATE
        SET document = EXCLUDED.document, state = EXCLUDED.state, occurred_at = EXCLUDED.occurred_at, updated_at = now()
        WHERE (pix_key_replica.occurred_at, array_position(${lifecycle}::text[], pix_key_replica.state))
            < (EXCLUDED.occurred_at, array_position(${lifecycle}::text[], EXCLUDED.state))`;
    return applied === 1;
  }

  /** Whether the user can be paid by key: one of their keys is registered now. */
  async hasRegisteredKey(partnerId: string, document: string, tx: Tx = this.prisma): Promise<boolean> {
    return (await tx.pixKeyReplica.count({ where: { partnerId, document, state: 'registered' } })) > 0;
  }
}
