import { Module } from '@nestjs/common';
import { CreatePartnerUseCase } from './create-partner.use-case';
import { PartnersController } from './partners.controller';

/** Operator API: partners (the repository is AuthModule's). */
@Module({ controllers: [PartnersController], providers: [CreatePartnerUseCase], exports: [CreatePartnerUseCase] })
export class PartnersModule {}
