import { Module } from '@nestjs/common';
import { UpsertUserHandler } from './upsert-user.handler';
import { UserRepository } from './user.repository';

@Module({
  controllers: [UpsertUserHandler],
  providers: [UserRepository],
  exports: [UserRepository],
})
export class UsersModule {}
