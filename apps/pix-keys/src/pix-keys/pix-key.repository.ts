import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PixKeyState } from '@partner/contracts';
import { PrismaService, Tx } from '../prisma/prisma.service';

export type KeyRef = Pick<PixKey, 'id' | 'partnerId' | 'document'>;

export interface PixKey {
  id: string;
  partnerId: string;
  document: string;
  key: string;
  state: PixKeyState;
  failureReason: string | null;
  deletionRequestedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The PixKey aggregate's storage. Every method takes the partner. The client also exposes
 * `partnerId_document` as a unique input: it stands for the partial index (active keys only), so it is
 * never used to look keys up; ended keys share those columns.
 */
@Injectable()
export class PixKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inserts a `pending` CPF key for the user, or answers null when the user already has an active key.
   * ON CONFLICT DO NOTHING against the partial unique index: a concurrent insert for the same user
   * waits for the other transaction, then yields to it, so parallel requests make exactly one key.
   */
  async createPending(tx: Tx, partnerId: string, document: string): Promise<PixKey | null> {
    const [created] = await tx.pixKey.createManyAndReturn({
      data: [{ id: randomUUID(), partnerId, document, key: document, state: 'pending' }],
      skipDuplicates: true,
    });
    return (created as PixKey | undefined) ?? null;
  }

  /** The user's active key (pending, registered or deleting: the states of the partial unique index), locked until the transaction ends so that no other move interleaves. */
  async lockActive(tx: Tx, partnerId: string, document: string): Promise<PixKey | null> {
    const [row] = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM "pix_keys"."pix_keys"
      WHERE partner_id = ${partnerId}::uuid AND document = ${document}
        AND state IN ('pending', 'registered', 'deleting')
      FOR UPDATE`;
    if (!row) return null;
    return (await tx.pixKey.findFirst({ where: { id: row.id, partnerId } })) as PixKey | null;
  }

  /** The user's most recent key, whatever its state. */
  async findLatest(tx: Tx, partnerId: string, document: string): Promise<PixKey | null> {
    return (await tx.pixKey.findFirst({
      where: { partnerId, document },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    })) as PixKey | null;
  }

  /** Records that the user asked for the deletion of a key still being registered; false if already asked. */
  async requestDeletion(tx: Tx, partnerId: string, id: string): Promise<boolean> {
    const { count } = await tx.pixKey.updateMany({
      where: { id, partnerId, deletionRequestedAt: null },
      data: { deletionRequestedAt: new Date() },
    });
    return count === 1;
  }

  /** Moves a key from `from` to `to` if it is still in `from`; null when another process got there first. */
  async transition(
    tx: Tx,
    partnerId: string,
    id: string,
    from: PixKeyState,
    to: PixKeyState,
    patch: { failureReason?: string; deletionRequestedAt?: Date } = {},
  ): Promise<PixKey | null> {
    const { count } = await tx.pixKey.updateMany({
      where: { id, partnerId, state: from },
      data: { state: to, updatedAt: new Date(), ...patch },
    });
    if (count !== 1) return null;
    return (await tx.pixKey.findUniqueOrThrow({ where: { id } })) as PixKey;
  }

  /**
   * Keys that have waited in `state` since before `before`, across partners (the simulated DICT is one
   * system process serving every partner; each item carries its partner for the scoped move that follows).
   */
  async findDueAcrossPartners(state: PixKeyState, before: Date, limit: number): Promise<KeyRef[]> {
    return this.prisma.pixKey.findMany({
      where: { state, updatedAt: { lte: before } },
      select: { id: true, partnerId: true, document: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
  }

  /** Registered keys whose deletion was asked for while they were pending, across partners. */
  async findDeletionRequestedAcrossPartners(limit: number): Promise<KeyRef[]> {
    return this.prisma.pixKey.findMany({
      where: { state: 'registered', deletionRequestedAt: { not: null } },
      select: { id: true, partnerId: true, document: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
  }
}
