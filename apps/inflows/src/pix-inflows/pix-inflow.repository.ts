import { Injectable } from '@nestjs/common';
import { PixInMethod, PixInStatus, PixReceivedEvent, SenderAccountType, SimulatedPixInOutcome } from '@partner/contracts';
import { PrismaService, Tx } from '../prisma/prisma.service';

export interface PixInflowRecord {
  id: bigint;
  partnerId: string;
  document: string;
  endToEndId: string;
  amountCents: bigint;
  description: string | null;
  method: PixInMethod;
  senderName: string;
  senderTaxId: string;
  senderAccountNumber: string;
  senderAccountType: SenderAccountType;
  senderBankCode: string;
  senderBranchCode: string;
  status: PixInStatus;
  outcome: SimulatedPixInOutcome;
  createdAt: Date;
  updatedAt: Date;
}

/** The PixInflow aggregate's storage. Every lookup is scoped by partner. */
@Injectable()
export class PixInflowRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Records an announced payment in `processing`, unless its end-to-end id is already recorded (then
   * null). The unique index makes a concurrent duplicate wait for the first to commit, then do nothing.
   */
  async recordIfAbsent(tx: Tx, partnerId: string, payment: PixReceivedEvent): Promise<PixInflowRecord | null> {
    const { count } = await tx.pixInflow.createMany({
      data: [
        {
          partnerId,
          document: payment.document,
          endToEndId: payment.end_to_end_id,
          amountCents: BigInt(payment.amount_cents),
          description: payment.description ?? null,
          method: payment.method,
          senderName: payment.sender_name,
          senderTaxId: payment.sender_tax_id,
          senderAccountNumber: payment.sender_account_number,
          senderAccountType: payment.sender_account_type,
          senderBankCode: payment.sender_bank_code,
          senderBranchCode: payment.sender_branch_code,
          status: 'processing',
          outcome: payment.outcome,
        },
      ],
      skipDuplicates: true,
    });
    if (count !== 1) return null;
    return (await tx.pixInflow.findFirstOrThrow({ where: { partnerId, endToEndId: payment.end_to_end_id } })) as PixInflowRecord;
  }

  async findByEndToEndId(partnerId: string, endToEndId: string): Promise<PixInflowRecord | null> {
    return (await this.prisma.pixInflow.findFirst({ where: { partnerId, endToEndId } })) as PixInflowRecord | null;
  }

  /** Moves an inflow from `from` to `to` if it is still in `from`; null when another process got there first. */
  async transition(tx: Tx, partnerId: string, id: bigint, from: PixInStatus, to: PixInStatus): Promise<PixInflowRecord | null> {
    const { count } = await tx.pixInflow.updateMany({ where: { id, partnerId, status: from }, data: { status: to, updatedAt: new Date() } });
    if (count !== 1) return null;
    return (await tx.pixInflow.findUniqueOrThrow({ where: { id } })) as PixInflowRecord;
  }

  /** One page of the partner's inflows, newest first (by id, the order they were recorded in). */
  async list(partnerId: string, page: { status?: PixInStatus; beforeId?: bigint; take: number }): Promise<PixInflowRecord[]> {
    return (await this.prisma.pixInflow.findMany({
      where: { partnerId, ...(page.status && { status: page.status }), ...(page.beforeId !== undefined && { id: { lt: page.beforeId } }) },
      orderBy: { id: 'desc' },
      take: page.take,
    })) as PixInflowRecord[];
  }

  /**
   * Inflows that have waited in `status` since before `before`, across partners: the simulated settlement
   * is one system process serving every partner; each item carries its partner for the scoped transition,
   * and the outcome asked for it (fixed when it was recorded).
   */
  async findDueAcrossPartners(status: PixInStatus, before: Date, limit: number): Promise<Array<{ id: bigint; partnerId: string; outcome: string }>> {
    return this.prisma.pixInflow.findMany({
      where: { status, updatedAt: { lte: before } },
      select: { id: true, partnerId: true, outcome: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
  }
}
