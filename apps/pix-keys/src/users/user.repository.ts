import { Injectable } from '@nestjs/common';
import { PartnerUserRepository } from '@partner/platform';
import { PrismaService } from '../prisma/prisma.service';

/**
 * The users of each partner who may own a Pix key. The creation of a key checks its user inside its own
 * statement (PixKeyRepository.createClaimed).
 * The statements are PartnerUserRepository's, shared with the other service that keeps users, run on
 * this service's pool (its schema).
 */
@Injectable()
export class UserRepository extends PartnerUserRepository {
  constructor(prisma: PrismaService) {
    super(prisma.pool, 'pix_keys');
  }
}
