import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../prisma/prisma.service';

/** The partner's users known here: who may receive a Pix. Scoped by partner. */
@Injectable()
export class UserRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Idempotent: tells whether the user was new. A concurrent duplicate waits on the key, then does nothing. */
  async upsert(partnerId: string, document: string): Promise<{ created: boolean }> {
    const { count } = await this.prisma.user.createMany({ data: [{ partnerId, document }], skipDuplicates: true });
    return { created: count === 1 };
  }

  async exists(partnerId: string, document: string, tx: Tx = this.prisma): Promise<boolean> {
    return (await tx.user.count({ where: { partnerId, document } })) === 1;
  }
}
