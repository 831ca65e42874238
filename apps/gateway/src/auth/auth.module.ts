import { Global, Module } from '@nestjs/common';
import { AdminKeyGuard } from './admin-key.guard';
import { ApiKeyGuard } from './api-key.guard';
import { PartnerRepository } from './partner.repository';

@Global()
@Module({ providers: [PartnerRepository, ApiKeyGuard, AdminKeyGuard], exports: [PartnerRepository, ApiKeyGuard, AdminKeyGuard] })
export class AuthModule {}
