import { Injectable } from '@nestjs/common';
import { PartnerUserRepository } from '@partner/platform';
import { PrismaService } from '../prisma/prisma.service';

/**
 * The partner's users known here: who may receive a Pix. The simulated network checks the user inside
 * its own statement (SpiPaymentRepository.send).
 * The statements are PartnerUserRepository's, shared with the other service that keeps users, run on
 * this service's pool (its schema).
 */
@Injectable()
export class UserRepository extends PartnerUserRepository {
  constructor(prisma: PrismaService) {
    super(prisma.pool, 'inflows');
  }
}
