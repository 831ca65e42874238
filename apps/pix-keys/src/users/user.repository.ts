import { Injectable } from '@nestjs/common';
import { Database } from '@partner/db';
import { PartnerUserRepository } from '@partner/platform';

/**
 * The users of each partner who may own a Pix key. The creation of a key checks its user inside its own
 * statement (PixKeyRepository.createClaimed).
 * The statements are PartnerUserRepository's, shared with the other service that keeps users, run on
 * this service's database (its schema).
 */
@Injectable()
export class UserRepository extends PartnerUserRepository {
  constructor(db: Database) {
    super(db, 'pix_keys');
  }
}
