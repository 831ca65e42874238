import { Injectable } from '@nestjs/common';
import { FeeChoice, Network, WithdrawalState } from '@partner/contracts';
import { Prisma } from '../generated/prisma/client';
import { PrismaService, Tx } from '../prisma/prisma.service';

export interface Withdrawal {
  id: number;
  partnerId: string;
  document: string;
  idempotencyKey: string;
  fingerprint: string;
  address: string;
  network: Network;
  feeChoice: FeeChoice;
  amountMicros: bigint;
  feeMicros: bigint;
  state: WithdrawalState;
  txHash: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewWithdrawal = Omit<Withdrawal, 'id' | 'state' | 'txHash' | 'failureReason' | 'createdAt' | 'updatedAt'>;

export class DuplicateIdempotencyKeyError extends Error {}

/** The Withdrawal aggregate's storage. Every lookup is scoped by partner. */
@Injectable()
export class WithdrawalRepository {
  constructor(private readonly prisma: PrismaService) {}

  async findByIdempotencyKey(partnerId: string, idempotencyKey: string, tx: Tx = this.prisma): Promise<Withdrawal | null> {
    return (await tx.withdrawal.findUnique({
      where: { partnerId_idempotencyKey: { partnerId, idempotencyKey } },
    })) as Withdrawal | null;
  }

  /** Inserts in state `created`. The unique (partner, key) index makes a concurrent duplicate wait, then fail here. */
  async create(tx: Tx, data: NewWithdrawal): Promise<Withdrawal> {
    try {
      return (await tx.withdrawal.create({ data: { ...data, state: 'created' } })) as Withdrawal;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new DuplicateIdempotencyKeyError(data.idempotencyKey);
      }
      throw error;
    }
  }

  /** Moves a withdrawal from `from` to `to` if it is still in `from`; null when another process got there first. */
  async transition(
    tx: Tx,
    partnerId: string,
    id: number,
    from: WithdrawalState,
    to: WithdrawalState,
    patch: { txHash?: string; failureReason?: string } = {},
  ): Promise<Withdrawal | null> {
    const { count } = await tx.withdrawal.updateMany({
      where: { id, partnerId, state: from },
      data: { state: to, updatedAt: new Date(), ...patch },
    });
    if (count !== 1) return null;
    return (await tx.withdrawal.findUniqueOrThrow({ where: { id } })) as Withdrawal;
  }

  /**
   * Withdrawals that have waited in `state` since before `before`, across partners: the simulated chain
   * is one system process serving every partner, and each item still carries its partner for the
   * partner-scoped transition that follows (and its destination, which never changes, for the chain's
   * outcome).
   */
  async findDueAcrossPartners(state: WithdrawalState, before: Date, limit: number): Promise<Array<{ id: number; partnerId: string; address: string }>> {
    return this.prisma.withdrawal.findMany({
      where: { state, updatedAt: { lte: before } },
      select: { id: true, partnerId: true, address: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
  }
}
