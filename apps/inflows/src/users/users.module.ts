import { Module } from '@nestjs/common';
import { PartnerUserRepository, UpsertUserUseCase } from '@partner/platform';
import { UpsertUserHandler } from './upsert-user.handler';
import { UserRepository } from './user.repository';

@Module({
  controllers: [UpsertUserHandler],
  providers: [UserRepository, { provide: PartnerUserRepository, useExisting: UserRepository }, UpsertUserUseCase],
  exports: [UserRepository],
})
export class UsersModule {}
