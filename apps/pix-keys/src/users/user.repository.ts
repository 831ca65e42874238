import { Injectable } from '@nestjs/common';
import { PrismaService, Tx } from '../prisma/prisma.service';

/** The users of each partner who may own a Pix key. Every lookup is scoped by partner. */
@Injectable()
export class UserRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Records the user unless known already; tells whether it was new. Safe under concurrent calls. */
  async upsert(partnerId: string, document: string): Promise<{ created: boolean }> {
    const { count } = await this.prisma.user.createMany({ data: [{ partnerId, document }], skipDuplicates: true });
    return { created: count === 1 };
  }

  async exists(tx: Tx, partnerId: string, document: string): Promise<boolean> {
    return (await tx.user.count({ where: { partnerId, document } })) === 1;
  }
}
