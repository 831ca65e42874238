import { Injectable } from '@nestjs/common';
import { Database } from '@partner/db';
import { PartnerUserRepository } from '@partner/platform';

/**
 * The partner's users known here: who may receive a Pix. The simulated network checks the user inside
 * its own statement (SpiPaymentRepository.send).
 * The statements are PartnerUserRepository's, shared with the other service that keeps users, run on
 * this service's database (its schema).
 */
@Injectable()
export class UserRepository extends PartnerUserRepository {
  constructor(db: Database) {
    super(db, 'inflows');
  }
}
