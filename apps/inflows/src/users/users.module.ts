import { Module } from '@nestjs/common';
import { UpsertUserHandler } from './upsert-user.handler';
import { UpsertUserUseCase } from './upsert-user.use-case';
import { UserRepository } from './user.repository';

@Module({ controllers: [UpsertUserHandler], providers: [UserRepository, UpsertUserUseCase], exports: [UserRepository] })
export class UsersModule {}
