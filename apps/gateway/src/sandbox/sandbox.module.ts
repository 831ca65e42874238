import { Module } from '@nestjs/common';
import { SandboxController } from './sandbox.controller';
import { CreatePartnerUseCase, UpsertSandboxUserUseCase } from './sandbox.use-cases';

@Module({ controllers: [SandboxController], providers: [CreatePartnerUseCase, UpsertSandboxUserUseCase] })
export class SandboxModule {}
