import { Module } from '@nestjs/common';
import { PartnerUserRepository, RecordPartnerUserUseCase } from '@partner/platform';
import { UpsertUserHandler } from './upsert-user.handler';
import { UserRepository } from './user.repository';

@Module({
  controllers: [UpsertUserHandler],
  providers: [UserRepository, { provide: PartnerUserRepository, useExisting: UserRepository }, RecordPartnerUserUseCase],
  exports: [UserRepository],
})
export class UsersModule {}
